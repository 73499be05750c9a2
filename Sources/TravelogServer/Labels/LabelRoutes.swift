import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogJournal
import TravelogStore

/// `GET /api/v1/labels?from=&to=&timezone=&device=&limit=`: the words a person put on their fixes
/// (`LocationLabel`: OwnTracks' POI and tag, a file's named waypoints), oldest first, each with its
/// fix's time and place and the device's name. Only labels of fixes still stored are answered.
struct LabelRoutes {
    let store: any TravelogStore
    /// The zone of each label's place, for its local time (as the journal writes a visit's).
    let placeTimeZones: PlaceTimeZones?

    func add(to router: RouteRegistry) {
        router.get("/api/v1/labels") { request, context in
            let identity = try context.requireIdentity()
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            let limit = try request.integerQuery("limit", in: 1...100_000, default: 10_000)
            guard let labels = store as? any LabelStore else { return try Response.json([LabelJSON]()) }
            // (A StoreError is answered by RouterErrorMiddleware.)
            let found = try await labels.labels(userID: identity.user.id, deviceIDs: Set(parameters.devices.map(\.id)),
                                                from: parameters.from, to: parameters.to, limit: limit)
            let names = Dictionary(parameters.devices.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            return try Response.json(found.map { label in
                LabelJSON(label, device: names[label.deviceID] ?? "", timeZone: placeTimeZones?.timeZone(at: label.coordinate))
            })
        }
    }
}

/// A label as the API answers it (and `travelog labels --json` prints it).
public struct LabelJSON: Encodable, Sendable {
    /// The labelled fix's time, ISO 8601 in UTC.
    var time: String
    /// The same in the place's own time zone, with its offset (as a journal entry's `localArrival`);
    /// `nil` when the place's zone is not known.
    var localTime: String?
    var device: String
    /// `poi`, `tag` or `waypoint`.
    var kind: String
    var text: String
    var latitude: Double
    var longitude: Double

    public init(_ stored: StoredLabel, device: String, timeZone: TimeZone?) {
        time = ISO8601TimeFormatter.string(stored.timestamp)
        localTime = timeZone.map { LocalTime.iso(stored.timestamp, in: $0) }
        self.device = device
        kind = stored.label.kind.rawValue
        text = stored.label.text
        latitude = stored.coordinate.latitude
        longitude = stored.coordinate.longitude
    }
}
