import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TravelogAccounts
import TravelogCore
import TravelogOSM
import TravelogServer
import TravelogSQLite
import TravelogStore
import TravelogTestSupport
@testable import TravelogRouting

@Suite("Directions through the API")
struct DirectionsRouteTests {
    /// An L of two residential streets: Southgate east from (60, 25), then Eastgate north.
    static func network() throws -> RoadNetwork {
        var assembly = RoadGraphAssembly()
        assembly.add(OSMWay(id: 10, nodeIDs: [1, 2], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Southgate")]))
        assembly.add(OSMWay(id: 11, nodeIDs: [2, 3], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Eastgate")]))
        for (id, latitude, longitude) in [(Int64(1), 60.0, 25.0), (2, 60.0, 25.002), (3, 60.002, 25.002)] {
            assembly.add(OSMNode(id: id, latitude: latitude, longitude: longitude))
        }
        let folder = TestDirectory.makeFolder("server-directions").path
        return RoadNetwork(graphs: [try RoadGraph.build(assembly.finish(boundingBox: nil), outputPath: folder + "/test.tlroute")])
    }

    @Test("GET /api/v1/directions answers MKRoute's fields with steps; a bad point is a 400, one outside coverage a 422 naming the end; coverage is a MultiPolygon")
    func directions() async throws {
        let store = try SQLiteLocationStore(path: TestDirectory.makeFolder("server-directions-db").appendingPathComponent("travelog.sqlite").path)
        var app = TravelogServerApp(store: store, configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        app.roadNetwork = try Self.network()
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .read)
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/directions?from=60.0001,25.0005&to=60.0015,25.0019&mode=walking&depart=2026-06-01T08:00:00Z",
                                     method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .ok)
                let route = try #require(response.body.json as? [String: Any])
                #expect(route["transportType"] as? String == "walking")
                let distance = try #require(route["distance"] as? Double)
                #expect(distance > 240 && distance < 260, "\(distance)")  // 83.7 m east, 166.9 m north at 60°N
                let steps = try #require(route["steps"] as? [[String: Any]])
                #expect(steps.map { $0["instruction"] as? String } == ["Head east on Southgate", "Turn left onto Eastgate", "Arrive at the destination"])
                #expect((route["polyline"] as? [String: Any])?["type"] as? String == "LineString")
                #expect(route["departure"] as? String == "2026-06-01T08:00:00Z")
                #expect((route["arrival"] as? String)?.hasPrefix("2026-06-01T08:0") == true)
                let line = try #require((route["polyline"] as? [String: Any])?["coordinates"] as? [[Double]])
                #expect(line.count >= 3 && line.allSatisfy { $0.count == 2 && $0[0] > 24.9 && $0[0] < 25.1 && $0[1] > 59.9 && $0[1] < 60.1 })
                #expect(steps[1]["modifier"] as? String == "left")
                #expect(steps[0]["road"] as? String == "Southgate" && (steps[0]["start"] as? [String: Any])?["longitude"] is Double)
                let source = try #require(route["source"] as? [String: Any])
                #expect((source["snapped"] as? [String: Any])?["latitude"] as? Double == 60)
            }
            try await client.execute(uri: "/api/v1/directions?from=60.0001,25.0005&to=91,25", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/directions?from=60.0001,25.0005&to=59,25&mode=cycling", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("to (59.0,25.0) is outside the coverage"))
            }
            try await client.execute(uri: "/api/v1/directions?from=60.0001,25.0005&to=60.001,25.001&mode=flying", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/directions/coverage", method: .get, headers: Auth.bearer(token)) { response in
                let coverage = try #require(response.body.json as? [String: Any])
                #expect(coverage["type"] as? String == "MultiPolygon")
                #expect((coverage["coordinates"] as? [Any])?.count == 1)
            }
            try await client.execute(uri: "/api/v1/directions/coverage", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
