import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogStore

/// The query parameters the read routes share: `from`, `to` (a day `YYYY-MM-DD` or an ISO 8601
/// time; a day is read in `timezone`, default UTC, and `to` as a day is inclusive), `timezone`
/// (IANA), `device` (a name; repeat or comma-separate for several; default all), `bbox`
/// (`minLon,minLat,maxLon,maxLat`).
struct ReadParameters {
    var from: Date?
    var to: Date?
    var timeZone: TimeZone
    var devices: [Device]
    var area: CoordinateBox?

    /// Parameters given by the server itself (a share link's range and owner's devices).
    init(from: Date?, to: Date?, timeZone: TimeZone, devices: [Device], area: CoordinateBox? = nil) {
        self.from = from
        self.to = to
        self.timeZone = timeZone
        self.devices = devices
        self.area = area
    }

    init(_ request: Request, identity: Identity, store: any AccountStore) async throws {
        if let name = request.query("timezone") {
            guard let zone = TimeZone(identifier: name) else {
                throw APIError.badRequest("timezone '\(name)' is not an IANA time zone such as Europe/Berlin")
            }
            timeZone = zone
        } else {
            timeZone = TimeZone(identifier: "UTC")!
        }
        from = try Self.bound(request, "from", timeZone: timeZone, endOfDay: false)
        to = try Self.bound(request, "to", timeZone: timeZone, endOfDay: true)
        let all = try await store.devices(userID: identity.user.id)
        // Each name once: a name repeated is one device (and the routes do a device's work per entry).
        var seen = Set<String>()
        let names = request.uri.queryParameters.getAll("device").flatMap { $0.split(separator: ",").map(String.init) }
            .filter { seen.insert($0).inserted }
        if names.isEmpty {
            devices = all
        } else {
            devices = try names.map { name in
                guard let device = all.first(where: { $0.name == name }) else {
                    throw APIError.notFound("no device named '\(name)'")
                }
                return device
            }
        }
        if let text = request.query("bbox") {
            let numbers = text.split(separator: ",").compactMap { Double($0) }
            guard numbers.count == 4, (-90...90).contains(numbers[1]), (-90...90).contains(numbers[3]),
                  numbers[1] <= numbers[3], (-180...180).contains(numbers[0]), (-180...180).contains(numbers[2]) else {
                throw APIError.badRequest("bbox '\(text)': expected minLon,minLat,maxLon,maxLat in degrees")
            }
            area = CoordinateBox(south: numbers[1], west: numbers[0], north: numbers[3], east: numbers[2])
        }
    }

    static func bound(_ request: Request, _ name: String, timeZone: TimeZone, endOfDay: Bool) throws -> Date? {
        guard let text = request.query(name) else { return nil }
        guard let date = TimeRangeBound.parse(text, timeZone: timeZone, endOfDay: endOfDay) else {
            throw APIError.badRequest("\(name) '\(text)': expected a day (YYYY-MM-DD) or an ISO 8601 time")
        }
        return date
    }

    func query(userID: UserID, limit: Int? = nil, newestFirst: Bool = false) -> LocationQuery {
        LocationQuery(userID: userID, deviceIDs: Set(devices.map(\.id)), from: from, to: to, area: area,
                      limit: limit, newestFirst: newestFirst)
    }
}
