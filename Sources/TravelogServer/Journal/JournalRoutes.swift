import Foundation
import Hummingbird
import TravelogCore
import TravelogGeocoding
import TravelogImport
import TravelogJournal
import TravelogStore

struct JournalRoutes {
    let store: any TravelogStore
    let journal: JournalService
    let gazetteer: Gazetteer?
    let placeTimeZones: PlaceTimeZones?
    /// Street, house number and point of interest for `/api/v1/geocode/reverse` where an OSM extract covers the point.
    var streetLevel: OSMReverseGeocoder? = nil
    /// Street addresses for `/api/v1/geocode/forward` from the OSM extracts.
    var localSearch: OSMSearchIndex? = nil


    /// The journal (visits, trips, places, where someone has been) and offline geocoding.
    func add(to router: RouteRegistry) {
        let reader = JournalReader(store: store, timeZones: placeTimeZones)
        let editor = JournalEditor(store: store)
        router.get("/api/v1/visits") { request, context in
            let identity = try context.requireIdentity()
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            await journal.drain()
            return try Response.json(try await reader.entries(userID: identity.user.id, from: parameters.from, to: parameters.to,
                                                              includeHidden: try request.choiceQuery("hidden", ["true", "false"], default: "false") == "true"))
        }
        router.on("/api/v1/visits/{id}", method: .patch) { request, context in
            let identity = try context.requirePerson()
            let body: VisitPatch = try await request.decodeJSON(context: context)
            let id = try visitID(context), userID = identity.user.id
            let stored = try await journalEdit {
                guard body.deleted != nil || body.merged != nil || body.title != nil else {
                    throw JournalEditor.Failure.invalid("expected title, deleted (false restores the entry) or merged (false undoes a merge)")
                }
                if body.merged == true { throw JournalEditor.Failure.invalid("entries are merged with POST /api/v1/visits/merge; merged takes only false") }
                var stored: StoredVisit?
                // Restored first, so that a deleted merged entry can be restored and unmerged in one request.
                switch body.deleted {
                case false?: stored = try await editor.restoreShown(visit: id, userID: userID)
                case true?: stored = try await editor.deleteShown(visit: id, userID: userID)
                case nil: break
                }
                if body.merged == false { stored = try await editor.unmergeShown(visit: id, userID: userID) }
                if let title = body.title { stored = try await editor.rename(visit: id, userID: userID, title: title) }
                return stored?.id ?? id
            }
            return try Response.json(try await entry(stored, reader: reader, userID: identity.user.id))
        }
        router.delete("/api/v1/visits/{id}") { _, context in
            let identity = try context.requirePerson()
            _ = try await journalEdit { try await editor.deleteShown(visit: try visitID(context), userID: identity.user.id) }
            return Response(status: .noContent)
        }
        router.post("/api/v1/visits/merge") { request, context in
            let identity = try context.requirePerson()
            struct Body: Decodable { var ids: [Int64] }
            let body: Body = try await request.decodeJSON(context: context)
            let stored = try await journalEdit {
                // At most `JournalEditor.maximumMergedEntries` ids, each once (150,000 repeats took 78 s).
                try await editor.merge(visits: body.ids.map(VisitID.init(rawValue:)), userID: identity.user.id)
            }
            return try Response.json(try await entry(stored.id, reader: reader, userID: identity.user.id))
        }
        router.get("/api/v1/trips") { request, context in
            let identity = try context.requireIdentity()
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            await journal.drain()
            // Days as the statistics read them, so a day's trips add up to no more than its distance.
            var placeOffset: (@Sendable (Location) -> Int?)?
            if let zones = placeTimeZones { placeOffset = { zones.offsetSeconds(for: $0) } }
            let offset = HistoryStatistics.localOffset(placeOffsetSeconds: placeOffset, timeZone: parameters.timeZone)
            let trips = try await reader.trips(userID: identity.user.id, from: parameters.from, to: parameters.to, utcOffset: offset)
            // Trips matched to the roads carry the match; the others are matched in the background.
            let (attached, pending) = try await journal.roads.roads.attach(trips)
            if let from = pending.map(\.startTime).min(), let to = pending.map(\.endTime).max() {
                journal.roads.enqueue(userID: identity.user.id, from: from, to: to.addingTimeInterval(1))
            }
            return try Response.json(attached)
        }
        router.get("/api/v1/places") { _, context in
            let identity = try context.requireIdentity()
            await journal.drain()
            return try Response.json(try await reader.places(userID: identity.user.id))
        }
        router.on("/api/v1/places/{id}", method: .patch) { request, context in
            let identity = try context.requirePerson()
            struct Body: Decodable { var name: String? }
            let body: Body = try await request.decodeJSON(context: context)
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the place id must be a number") }
            _ = try await journalEdit { try await editor.rename(place: PlaceID(rawValue: id), userID: identity.user.id, name: body.name) }
            return try Response.json(try await reader.places(userID: identity.user.id).first { $0.id == id })
        }
        router.get("/api/v1/whereabouts") { request, context in
            let identity = try context.requireIdentity()
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            await journal.drain()
            return try Response.json(try await reader.whereabouts(userID: identity.user.id, from: parameters.from, to: parameters.to))
        }
        router.post("/api/v1/journal/process") { _, context in
            let identity = try context.requirePerson()
            var visits = 0
            for device in try await store.devices(userID: identity.user.id) {
                let changes = try await journal.reprocess(device: device)
                visits += changes.arrivedCount
            }
            return try Response.json(["newVisits": visits])
        }
        addGeocodingRoutes(to: router)
    }

    func addGeocodingRoutes(to router: RouteRegistry) {
        let reverse = gazetteer.map { gazetteer in
            var geocoder = ReverseGeocoder(gazetteer: gazetteer)
            geocoder.streetLevel = streetLevel
            return geocoder
        }
        let forward = gazetteer.map { gazetteer in
            var geocoder = ForwardGeocoder(gazetteer: gazetteer)
            geocoder.streetLevel = localSearch
            return geocoder
        }
        router.get("/api/v1/geocode/reverse") { request, context in
            _ = try context.requireIdentity()
            guard let reverse else { throw APIError.notFound("no gazetteer is installed on this server (make gazetteer)") }
            guard let latitude = request.query("lat").flatMap(Double.init), let longitude = request.query("lon").flatMap(Double.init)
            else { throw APIError.badRequest("expected lat and lon in degrees") }
            let coordinate: Coordinate
            do { coordinate = try Coordinate(latitude: latitude, longitude: longitude) } catch {
                throw APIError.badRequest("\(error)")
            }
            guard let placemark = reverse.placemark(for: coordinate) else { throw APIError.notFound("no place") }
            return try Response.json(PlacemarkJSON(placemark))
        }
        router.get("/api/v1/geocode/forward") { request, context in
            _ = try context.requireIdentity()
            guard let forward else { throw APIError.notFound("no gazetteer is installed on this server (make gazetteer)") }
            guard let text = request.query("q"), !text.isEmpty else { throw APIError.badRequest("expected q, the text to look for") }
            try Self.checkGeocodingText(text)
            let limit = try request.integerQuery("limit", in: 1...50, default: 5)
            return try Response.json(forward.placemarks(for: text, limit: limit).map(PlacemarkJSON.init))
        }
    }

    /// The longest `q` of forward geocoding, in Unicode scalars (JSON Schema's characters): an
    /// address with its city, region and country fits in a quarter of it. It also bounds the words
    /// (at most 100), whose runs of up to eight are each looked up.
    static let maximumGeocodingTextCharacters = 200

    /// Refuses a `q` over ``maximumGeocodingTextCharacters``.
    static func checkGeocodingText(_ text: String) throws(APIError) {
        let count = text.unicodeScalars.count
        guard count <= maximumGeocodingTextCharacters else {
            throw .badRequest("q is \(count) characters long: at most \(maximumGeocodingTextCharacters) are read")
        }
    }

    func visitID(_ context: TravelogRequestContext) throws -> VisitID {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the entry id must be a number") }
        return VisitID(rawValue: id)
    }

    func journalEdit<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as JournalEditor.Failure {
            switch failure {
            case .notFound(let message): throw APIError.notFound(message)
            case .invalid(let message): throw APIError.badRequest(message)
            }
        } catch let error as StoreError {
            throw APIError.storeFailed(error)
        }
    }

    func entry(_ id: VisitID, reader: JournalReader, userID: UserID) async throws -> JournalEntry {
        guard let entry = try await reader.entries(userID: userID, from: nil, to: nil, includeHidden: true).first(where: { $0.id == id.rawValue })
        else { throw APIError.notFound("no journal entry \(id)") }
        return entry
    }
}

/// The body of `PATCH /api/v1/visits/{id}`: each field present is a change (`title: null` removes
/// the title; an absent one leaves it).
struct VisitPatch: Decodable {
    var title: String??
    var deleted: Bool?
    var merged: Bool?

    enum CodingKeys: String, CodingKey { case title, deleted, merged }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = container.contains(.title) ? .some(try container.decodeIfPresent(String.self, forKey: .title)) : nil
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted)
        merged = try container.decodeIfPresent(Bool.self, forKey: .merged)
    }
}

/// A placemark in the API: the fields `travelog geocode --json` prints.
struct PlacemarkJSON: Encodable {
    var name: String
    var admin1: String?
    var admin2: String?
    var country: String?
    var countryCode: String?
    var timeZone: String?
    var latitude: Double
    var longitude: Double
    var distanceMeters: Double?
    /// From an OSM extract, absent elsewhere.
    var thoroughfare: String?
    var subThoroughfare: String?
    var postalCode: String?
    var subLocality: String?
    var areasOfInterest: [String]?
    var poi: String?
    var poiCategory: String?

    init(_ placemark: Placemark) {
        name = placemark.name
        admin1 = placemark.administrativeArea
        admin2 = placemark.subAdministrativeArea
        country = placemark.country
        countryCode = placemark.isoCountryCode
        timeZone = placemark.timeZoneIdentifier
        latitude = placemark.coordinate.latitude
        longitude = placemark.coordinate.longitude
        distanceMeters = placemark.distanceMeters.map { ($0 * 10).rounded() / 10 }
        thoroughfare = placemark.thoroughfare
        subThoroughfare = placemark.subThoroughfare
        postalCode = placemark.postalCode
        subLocality = placemark.subLocality
        areasOfInterest = placemark.areasOfInterest.isEmpty ? nil : placemark.areasOfInterest
        poi = placemark.pointOfInterest?.name
        poiCategory = placemark.pointOfInterest?.category
    }
}
