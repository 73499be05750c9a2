import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogJournal
import TravelogStore

/// Local search (`MKLocalSearch`) as `travelog search` and `GET /api/v1/search` answer it: the
/// person's own named places and visits first (`own: true`), then the points of interest, addresses
/// and streets of the OSM extracts (`OSMSearchIndex`) and the gazetteer's towns, ranked by text
/// match and then by distance (`SearchTextMatch`).
public struct LocalSearch: Sendable {
    /// The OSM extracts' index, `nil` when none is added.
    public let index: OSMSearchIndex?
    /// The gazetteer's towns, `nil` without a gazetteer.
    public let towns: ForwardGeocoder?

    /// The longest text searched, in Unicode scalars (as forward geocoding).
    public static let maximumTextCharacters = 200
    /// The most results asked for.
    public static let maximumLimit = 50
    public static let attribution = "© OpenStreetMap contributors"

    public init(index: OSMSearchIndex?, gazetteer: Gazetteer?) {
        self.index = index
        towns = gazetteer.map(ForwardGeocoder.init(gazetteer:))
    }

    /// What was asked.
    public struct Request: Sendable {
        public var text: String
        /// Distances from here (`near`, or the centre of `region`).
        public var origin: Coordinate?
        /// Only points of interest of these tags (`--category`, `category=`), when given.
        public var categories: [String]?
        public var limit: Int

        public init(text: String, origin: Coordinate? = nil, categories: [String]? = nil, limit: Int = 10) {
            self.text = text
            self.origin = origin
            self.categories = categories
            self.limit = limit
        }
    }

    /// Why a request cannot be searched (a 400 in the API, a usage error in the CLI).
    public enum RequestError: Error, Equatable, CustomStringConvertible {
        case emptyText
        case textTooLong(characters: Int)
        case malformedNear(String)
        case malformedRegion(String)
        case unknownCategory(String)
        case limitOutOfRange(Int)

        public var description: String {
            switch self {
            case .emptyText: "expected q, the text to search for"
            case .textTooLong(let count): "q is \(count) characters long: at most \(LocalSearch.maximumTextCharacters) are read"
            case .malformedNear(let text): "near must be LAT,LON in decimal degrees, not \"\(text)\""
            case .malformedRegion(let text): "region must be LAT,LON,SPAN in decimal degrees (a span over 0 and at most 180), not \"\(text)\""
            case .unknownCategory(let word): "unknown category \"\(word)\" (a word such as cafe, supermarket, pharmacy, atm, or an OSM key=value)"
            case .limitOutOfRange(let limit): "limit must be between 1 and \(LocalSearch.maximumLimit), not \(limit)"
            }
        }
    }

    /// Checks and reads the parameters the API and the CLI share.
    /// - Throws: ``RequestError``.
    public static func request(text: String?, near: String?, region: String?, category: String?, limit: Int?) throws(RequestError) -> Request {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyText }
        // A form's empty field is an absent one (the page and HTML forms send `region=` and `category=`).
        func given(_ value: String?) -> String? {
            guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return value
        }
        let near = given(near), region = given(region), category = given(category)
        let count = text.unicodeScalars.count
        guard count <= maximumTextCharacters else { throw .textTooLong(characters: count) }
        var origin: Coordinate?
        if let near {
            let numbers = near.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 2, let latitude = numbers[0], let longitude = numbers[1],
                  let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) else { throw .malformedNear(near) }
            origin = coordinate
        }
        if let region {
            let numbers = region.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 3, let latitude = numbers[0], let longitude = numbers[1], let span = numbers[2], span > 0, span <= 180,
                  let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) else { throw .malformedRegion(region) }
            origin = origin ?? coordinate
        }
        var categories: [String]?
        if let category {
            guard let tags = OSMSearchCategories.tags(for: category.trimmingCharacters(in: .whitespaces)), !tags.isEmpty else {
                throw .unknownCategory(category)
            }
            categories = tags
        }
        let limit = limit ?? 10
        guard (1...maximumLimit).contains(limit) else { throw .limitOutOfRange(limit) }
        return Request(text: text, origin: origin, categories: categories, limit: limit)
    }

    /// The answer: own places first, then the rest by rank, at most `request.limit` in all.
    public func search(_ request: Request, own: [OwnPlace] = []) -> SearchAnswer {
        let words = PlaceNameFolding.words(request.text)
        func distance(_ coordinate: Coordinate) -> Double? { request.origin.map { $0.distanceMeters(to: coordinate) } }
        var ranked: [(score: Double, result: SearchResult)] = []
        if request.categories == nil {
            for place in own {
                guard let score = SearchTextMatch.score(query: words, name: PlaceNameFolding.words(place.name)) else { continue }
                ranked.append((score, SearchResult(own: place, distanceMeters: distance(place.coordinate))))
            }
        }
        Self.sort(&ranked)
        var results = ranked.prefix(request.limit).map(\.result)
        ranked = []
        if let index {
            for found in index.search(request.text, near: request.origin, categories: request.categories, limit: request.limit) {
                ranked.append((found.score, SearchResult(found)))
            }
        }
        if let towns, request.categories == nil {
            for match in towns.matches(for: request.text, limit: request.limit) {
                let placemark = match.placemark
                let score = SearchTextMatch.score(query: words, name: PlaceNameFolding.words(placemark.name)) ?? 0.85
                ranked.append((score, SearchResult(town: placemark, distanceMeters: distance(placemark.coordinate))))
            }
        }
        Self.sort(&ranked)
        results += ranked.prefix(max(0, request.limit - results.count)).map(\.result)
        return SearchAnswer(query: request.text, results: results,
                            attribution: results.contains { $0.source == "osm" } ? Self.attribution : nil)
    }

    static func sort(_ ranked: inout [(score: Double, result: SearchResult)]) {
        ranked.sort { a, b in
            SearchTextMatch.ranksBefore(score: a.score, distanceMeters: a.result.distanceMeters, name: a.result.name,
                                        score: b.score, distanceMeters: b.result.distanceMeters, name: b.result.name)
        }
    }

    /// A person's named place, or the visits they gave one title, as search sees it.
    public struct OwnPlace: Hashable, Sendable {
        public var name: String
        public var coordinate: Coordinate
        /// The place's id; `nil` for titled visits outside a place.
        public var placeID: Int64?
        public var lastVisit: Date?
        public var visitCount: Int

        public init(name: String, coordinate: Coordinate, placeID: Int64?, lastVisit: Date?, visitCount: Int) {
            self.name = name
            self.coordinate = coordinate
            self.placeID = placeID
            self.lastVisit = lastVisit
            self.visitCount = visitCount
        }
    }

    /// A person's named places, and their titled visits outside a named place (one per title: the
    /// latest visit's position), with when they were last there and how often.
    public static func ownPlaces(store: any JournalStore, userID: UserID) async throws -> [OwnPlace] {
        let places = try await store.places(userID: userID)
        let visits = try await store.visits(userID: userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        let named = Dictionary(uniqueKeysWithValues: places.compactMap { place in place.name.map { (place.id, $0) } })
        var own: [OwnPlace] = []
        for place in places {
            guard let name = place.name else { continue }
            let mine = visits.filter { $0.placeID == place.id }
            own.append(OwnPlace(name: name, coordinate: place.center, placeID: place.id.rawValue,
                                lastVisit: mine.map(\.visit.arrival).max(), visitCount: mine.count))
        }
        var byTitle: [String: OwnPlace] = [:]
        for stored in visits where stored.placeID.flatMap({ named[$0] }) == nil {
            guard let title = stored.title ?? stored.visit.name else { continue }
            let key = PlaceNameFolding.key(title)
            guard !key.isEmpty else { continue }
            var entry = byTitle[key] ?? OwnPlace(name: title, coordinate: stored.visit.center, placeID: nil, lastVisit: nil, visitCount: 0)
            entry.visitCount += 1
            if entry.lastVisit.map({ stored.visit.arrival > $0 }) ?? true {
                entry.lastVisit = stored.visit.arrival
                entry.coordinate = stored.visit.center
                entry.name = title
            }
            byTitle[key] = entry
        }
        return own + byTitle.keys.sorted().compactMap { byTitle[$0] }
    }
}
