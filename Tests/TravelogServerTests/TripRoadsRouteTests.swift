import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogOSM
import TravelogPostgres
@testable import TravelogRouting
@testable import TravelogServer
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// The journal's trips matched to the roads in the background (issue 29 item 3), through the API.
@Suite("The journal's trips on the roads")
struct TripRoadsRouteTests {
    /// Southgate, 1 km east from (60, 25), and Eastgate, 1 km north from its end.
    static func network() throws -> RoadNetwork {
        var assembly = RoadGraphAssembly()
        assembly.add(OSMWay(id: 10, nodeIDs: [1, 2, 3], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Southgate")]))
        assembly.add(OSMWay(id: 11, nodeIDs: [3, 4, 5], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Eastgate")]))
        // Two footpaths far off at the corners: the extract's box holds the stays' jitter and the fixes beside the streets.
        assembly.add(OSMWay(id: 12, nodeIDs: [6, 7], tags: [OSMTag(key: "highway", value: "footway")]))
        assembly.add(OSMWay(id: 13, nodeIDs: [8, 9], tags: [OSMTag(key: "highway", value: "footway")]))
        for (id, latitude, longitude) in [(Int64(1), 60.0, 25.0), (2, 60.0, 25.009), (3, 60.0, 25.018), (4, 60.0045, 25.018), (5, 60.009, 25.018),
                                          (6, 59.99, 24.99), (7, 59.9901, 24.99), (8, 60.02, 25.03), (9, 60.0201, 25.03)] {
            assembly.add(OSMNode(id: id, latitude: latitude, longitude: longitude))
        }
        let folder = TestDirectory.makeFolder("trip-roads-\(UUID().uuidString)").path
        return RoadNetwork(graphs: [try RoadGraph.build(assembly.finish(boundingBox: nil), outputPath: folder + "/test.tlroute")])
    }

    static let morning = Date(timeIntervalSince1970: 1_780_041_600)  // 2026-05-29T08:00:00Z

    /// A stay of 12 minutes (a fix a minute, a metre or two apart), then a walk at 1.4 m/s (a fix
    /// every 10 s, 3 m off the road) to each next stay: home at the west end of Southgate, the
    /// corner, the north end of Eastgate. A day later: two stays in Munich, outside the extract,
    /// and the walk between them.
    static func day() -> [(latitude: Double, longitude: Double, time: Date)] {
        var fixes: [(latitude: Double, longitude: Double, time: Date)] = []
        var time = morning
        func stay(_ latitude: Double, _ longitude: Double) {
            for minute in 0..<13 {
                fixes.append((latitude + Double(minute % 3) * 0.00001, longitude, time))
                time += 60
            }
        }
        func walk(from: (Double, Double), to: (Double, Double)) {
            let meters = Coordinate(validLatitude: from.0, longitude: from.1)!.distanceMeters(to: Coordinate(validLatitude: to.0, longitude: to.1)!)
            let steps = Int(meters / 14)
            for step in 1..<steps {
                let fraction = Double(step) / Double(steps)
                // 3 m north of Southgate, 3 m east of Eastgate.
                let offset = from.0 == to.0 ? (0.000027, 0.0) : (0.0, 0.000054)
                fixes.append((from.0 + (to.0 - from.0) * fraction + offset.0, from.1 + (to.1 - from.1) * fraction + offset.1, time))
                time += 10
            }
        }
        stay(60.0, 25.0)
        walk(from: (60.0, 25.0), to: (60.0, 25.018))
        stay(60.0, 25.018)
        walk(from: (60.0, 25.018), to: (60.009, 25.018))
        stay(60.009, 25.018)
        time += 86_400
        stay(48.0, 11.0)
        walk(from: (48.0, 11.0), to: (48.0, 11.02))
        stay(48.0, 11.02)
        return fixes
    }

    static func overlandBatches() -> [String] {
        let features = day().map { fix in
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(fix.longitude),\#(fix.latitude)]},"properties":{"timestamp":"\#(ISO8601TimeFormatter.string(fix.time, utcOffsetSeconds: 0))","horizontal_accuracy":5}}"#
        }
        return stride(from: 0, to: features.count, by: 50).map { first in
            #"{"locations":["# + features[first..<min(features.count, first + 50)].joined(separator: ",") + "]}"
        }
    }

    static func trips(_ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> [[String: Any]] {
        try await client.execute(uri: "/api/v1/trips?from=2026-05-29&to=2026-05-31", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return try #require(response.body.json as? [[String: Any]])
        }
    }

    static func visitIDs(_ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> [Int64] {
        try await client.execute(uri: "/api/v1/visits?from=2026-05-29&to=2026-05-31", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return try #require(response.body.json as? [[String: Any]]).compactMap { ($0["id"] as? NSNumber)?.int64Value }
        }
    }

    /// The trips once the background matched what a read found pending (a read asks for it; the
    /// service's own loop may be matching the same ones meanwhile) and the service has counted `matched`
    /// matches: its drain stores a match before it counts it, so a read can see the last match stored and
    /// the count one short.
    static func settledTrips(_ app: TravelogServerApp, _ client: some TestClientProtocol, _ headers: HTTPFields,
                             matched: Int = 0) async throws -> [[String: Any]] {
        var trips = try await trips(client, headers)
        for _ in 0..<3_000 where trips.contains(where: { $0["roadsStatus"] as? String == "pending" }) || app.journal.roads.matched < matched {
            await app.journal.roads.drain()
            try await Task.sleep(for: .milliseconds(20))
            trips = try await Self.trips(client, headers)
        }
        return trips
    }

    /// The length of a trip's line as the journal draws it (from the place left through the fixes to the place reached), metres.
    static func rawMeters(_ trip: [String: Any]) -> Double {
        let points = (trip["coordinates"] as? [[Double]] ?? []).compactMap { Coordinate(validLatitude: $0[1], longitude: $0[0]) }
        return zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distanceMeters(to: $1.1) }
    }

    /// "Southgate → Eastgate" of the trips of the walk, in order.
    static func roads(_ trips: [[String: Any]]) -> [[String]] {
        trips.filter { ($0["coordinates"] as? [[Double]])?.first?[1] ?? 0 > 59 }.map { $0["roads"] as? [String] ?? ["-"] }
    }

    @Test("SQLite: uploads are answered while the matching is held; the background fills matchedDistance (within 2 % of the trip's line, 5 % of the journal's day), roads and the line; delete, restore and merge each give the new trips' roads; a trip outside the extract says why")
    func sqlite() async throws {
        let store = try SQLiteLocationStore(path: TestDirectory.makeFolder("trip-roads-db-\(UUID().uuidString)").appendingPathComponent("travelog.sqlite").path)
        try await Self.run(store)
    }

    @Test("PostgreSQL: the same, stored in PostgreSQL",
          .enabled(if: PostgresLiveFeedTests.server != nil, "TRAVELOG_TEST_POSTGRES_URL is not set: trips on the roads were not tested on PostgreSQL"))
    func postgres() async throws {
        let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.run(try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4))
    }

    static func run(_ store: any TravelogStore) async throws {
        var configured = TravelogServerApp(store: store, configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        configured.roadNetwork = try network()
        let app = configured
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: .overland, scope: .write)
        let person = Auth.basic("ada", ServerFixture.adaPassword)
        let release = DispatchSemaphore(value: 0)
        try await app.makeApplication().test(.router) { client in
            // The matching's queue is held: every upload and read must be answered without it.
            MatchRoutes.matching.async { release.wait() }
            defer { release.signal() }  // whatever fails below (a second signal is harmless)
            for body in overlandBatches() {
                try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token), body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .ok)
                }
            }
            // The journal's runs asked for the trips around the visits they found to be matched.
            await app.journal.drain()
            #expect(app.journal.roads.journalRequests > 0)
            let held = try await trips(client, person)
            #expect(held.count >= 3)
            #expect(held.allSatisfy { $0["roadsStatus"] as? String == "pending" && $0["matchedDistance"] is NSNull })
            #expect(app.journal.roads.matched == 0)
            release.signal()

            let trips = try await settledTrips(app, client, person, matched: 3)
            #expect(app.journal.roads.matched >= 3)
            #expect(roads(trips) == [["Southgate"], ["Eastgate"]])
            var matchedSum = 0.0, journalSum = 0.0
            for trip in trips where roads([trip]) != [] {
                #expect(trip["roadsStatus"] as? String == "matched")
                let matched = try #require(trip["matchedDistance"] as? Double)
                let journal = try #require(trip["distanceMeters"] as? Double)
                matchedSum += matched
                journalSum += journal
                // Each street is 1 km, walked from stay to stay; the trip runs from a visit's center (the
                // mean of its fixes, some of them the walk's within its radius) to the next one's: 973 and 967 m.
                #expect(matched > 950 && matched < 1_010, "\(matched)")
                // The same line as the journal draws it, fix to fix: 975 and 968 m.
                let raw = rawMeters(trip)
                #expect(abs(matched - raw) / raw < 0.02, "matched \(matched) m, the trip's line \(raw) m")
                let line = try #require(trip["matchedLine"] as? [[[Double]]])
                #expect(line.count == 1 && line[0].count >= 2)
                #expect(trip["roadsNote"] is NSNull)
            }
            // The journal reads a trip's distance from its departure to the next departure, so the walk out of the
            // corner's radius (98 m up Eastgate) counts in the first trip: 1,003 and 890 m. The day's sum agrees.
            #expect(abs(matchedSum - journalSum) / journalSum < 0.05, "matched \(matchedSum) m, journal \(journalSum) m")
            let munich = try #require(trips.last)
            #expect(munich["roadsStatus"] as? String == "unmatched")
            #expect(munich["roadsNote"] as? String == "the trip lies outside the OSM extracts added")
            #expect(munich["matchedDistance"] is NSNull)

            // Edits: each gives trips of other keys, matched anew.
            let ids = try await visitIDs(client, person)
            #expect(ids.count == 5)
            let corner = ids[1]
            try await client.execute(uri: "/api/v1/visits/\(corner)", method: .delete, headers: person) { #expect($0.status == .noContent) }
            var edited = try await settledTrips(app, client, person)
            #expect(roads(edited) == [["Southgate", "Eastgate"]])
            let deletedStart = edited.first?["start"] as? String
            let whole = try #require(edited.first?["matchedDistance"] as? Double)
            #expect(whole > 1_950 && whole < 2_010, "\(whole)")
            try await client.execute(uri: "/api/v1/visits/\(corner)", method: .patch, headers: person,
                                     body: ByteBuffer(string: #"{"deleted":false}"#)) { #expect($0.status == .ok) }
            edited = try await settledTrips(app, client, person)
            #expect(roads(edited) == [["Southgate"], ["Eastgate"]])
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: person,
                                     body: ByteBuffer(string: #"{"ids":[\#(ids[0]),\#(corner)]}"#)) { #expect($0.status == .ok) }
            edited = try await settledTrips(app, client, person)
            // The merged entry is at home (its first visit's place) and is left at the corner's departure: a trip of
            // its own (another start than the one over the deleted corner), from home up Eastgate.
            #expect(roads(edited) == [["Southgate", "Eastgate"]])
            #expect(edited.first?["start"] as? String != deletedStart)
            #expect(edited.first?["roadsStatus"] as? String == "matched")
            #expect(edited.allSatisfy { $0["roadsStatus"] as? String != "pending" })
        }
    }
}
