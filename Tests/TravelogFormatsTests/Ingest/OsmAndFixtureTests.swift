import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Traccar's own OsmAnd decoder test requests (../shared/fixtures/traccar-osmand), decoded as
/// Traccar Client's requests (speed in knots) and checked against the `expected` values the
/// Travelog team derived from Traccar's decoder.
@Suite("OsmAndRequestDecoder on Traccar's test requests", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct OsmAndFixtureTests {
    /// A JSON scalar of `expected.extras`, typed as written.
    enum Scalar: Decodable, Equatable {
        case bool(Bool), integer(Int64), double(Double), string(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Int64.self) { self = .integer(value) }
            else if let value = try? container.decode(Double.self) { self = .double(value) }
            else { self = .string(try container.decode(String.self)) }
        }

        /// How `IngestedLocation.attributes` writes the value.
        var text: String {
            switch self {
            case .bool(let value): String(value)
            case .integer(let value): String(value)
            case .double(let value): String(value)
            case .string(let value): value
            }
        }
    }

    struct Expected: Decodable {
        var deviceId: String
        var time: String?
        var timeLocalUnspecifiedZone: String?
        var lat: Double?
        var lon: Double?
        var accuracyM: Double?
        var speedMps: Double?
        var speedKnots: Double?
        var course: Double?
        var altitudeM: Double?
        var hdop: Double?
        var batteryPercent: Double?
        var charging: Bool?
        var isMoving: Bool?
        var activity: String?
        var event: String?
        var extras: [String: Scalar]?
    }

    struct Request: Decodable, CustomTestStringConvertible {
        var id: String
        var target: String
        var contentType: String?
        var body: String
        var expected: Expected?

        var testDescription: String { id }
    }

    static let requests: [Request] = {
        guard SharedFixtures.available,
              let data = try? Data(contentsOf: SharedFixtures.url("traccar-osmand/osmand_requests.jsonl")) else { return [] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            try? decoder.decode(Request.self, from: Data(line.utf8))
        }
    }()

    static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    static func decode(_ request: Request) throws(IngestError) -> IngestedLocation {
        let parts = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count == 2 ? parts[1] : ""
        return try OsmAndRequestDecoder.traccarClient.decode(query: query, contentType: request.contentType,
                                                             body: Array(request.body.utf8), receivedAt: receivedAt)
    }

    @Test("every line of the file is read")
    func allLines() {
        #expect(Self.requests.count == 7)
    }

    @Test("requests with a position give the expected fix", arguments: requests.filter { $0.expected?.lat != nil })
    func positions(request: Request) throws {
        let expected = try #require(request.expected)
        let ingested = try Self.decode(request)
        let location = ingested.location
        #expect(ingested.deviceIdentifier == expected.deviceId)
        // A time without a zone ("yyyy-MM-dd HH:mm:ss") is read as UTC, Travelog's documented choice.
        let timeText = try #require(expected.time ?? expected.timeLocalUnspecifiedZone.map { $0 + "Z" })
        #expect(location.timestamp == (try TimestampParser.parse(timeText).date))
        #expect(location.coordinate == (try Coordinate(latitude: try #require(expected.lat), longitude: try #require(expected.lon))))
        if let accuracy = expected.accuracyM { #expect(location.horizontalAccuracyMeters == accuracy) }
        if let speed = expected.speedMps { #expect(location.speedMetersPerSecond == speed) }
        if let knots = expected.speedKnots { #expect(location.speedMetersPerSecond == Units.metersPerSecond(knots: knots)) }
        if expected.course == nil { #expect(location.courseIfKnown == nil) }
        if let altitude = expected.altitudeM { #expect(location.altitudeMeters == altitude) }
        if let hdop = expected.hdop { #expect(ingested.horizontalDilutionOfPrecision == hdop) }
        if let battery = expected.batteryPercent { #expect(ingested.batteryPercent == battery) }
        if let charging = expected.charging { #expect(ingested.isCharging == charging) }
        if let moving = expected.isMoving { #expect(ingested.attributes["is_moving"] == String(moving)) }
        if let activity = expected.activity { #expect(ingested.attributes["activity"] == activity) }
        if let event = expected.event { #expect(ingested.attributes["event"] == event) }
        for (name, value) in expected.extras ?? [:] {
            #expect(ingested.attributes[name] == value.text, "extras.\(name)")
        }
    }

    @Test("a request without an id is rejected for its id; one without a position for its latitude")
    func rejections() throws {
        let withoutID = try #require(Self.requests.first { $0.id == "query-missing-id" })
        #expect(throws: IngestError.missingField("id")) { try Self.decode(withoutID) }
        // Traccar stores cell towers and Wi-Fi for a later lookup; a location history has nothing to store.
        let cellsOnly = try #require(Self.requests.first { $0.id == "query-cell-wifi-no-latlon" })
        #expect(throws: IngestError.missingField("lat")) { try Self.decode(cellsOnly) }
    }
}
