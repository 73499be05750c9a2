import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TravelogAccounts
import TravelogCore
import TravelogServer
import TravelogSQLite
import TravelogStore
import TravelogTestSupport
import TravelogRouting

@Suite("Map matching through the API")
struct MatchRouteTests {
    /// Fixes every 10 s along Southgate (east from 60, 25) and up Eastgate, 4 m off the roads.
    static func walk(start: Date) -> [Location] {
        var points: [Coordinate] = []
        for step in 0...8 { points.append(Coordinate(validLatitude: 60.00004, longitude: 25.0002 + Double(step) * 0.0002)!) }
        for step in 1...8 { points.append(Coordinate(validLatitude: 60 + Double(step) * 0.0002, longitude: 25.00204)!) }
        return points.enumerated().map { Location(coordinate: $0.element, timestamp: start.addingTimeInterval(Double($0.offset) * 10)) }
    }

    @Test("GET /api/v1/match answers a trip's or a range's fixes matched to the roads (mode, distance, rawDistance, a MultiLineString, the roads in order, counts, attribution); a range over 24 h or no trip nor range is a 400, an unknown trip or device a 404, fixes outside the extracts a 422, no credentials a 401")
    func match() async throws {
        let store = try SQLiteLocationStore(path: TestDirectory.makeFolder("server-match-db").appendingPathComponent("travelog.sqlite").path)
        var app = TravelogServerApp(store: store, configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        app.roadNetwork = try DirectionsRouteTests.network()
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (phone, token) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .read)
        let start = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
        _ = try await store.insert(Self.walk(start: start).map { StoredLocation(deviceID: phone.id, location: $0, source: .api) })
        let far = Location(coordinate: Coordinate(validLatitude: 48.0, longitude: 11.0)!, timestamp: start.addingTimeInterval(86_400 * 3))
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: far, source: .api)])
        // A stay before the walk and one after it: the trip between them is the walk.
        let home = Coordinate(validLatitude: 60.00004, longitude: 25.0002)!, shop = Coordinate(validLatitude: 60.0016, longitude: 25.00204)!
        _ = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: start - 3_600, to: nil, with: [
            JournalVisit(deviceID: phone.id, source: .detected, arrival: start - 3_600, departure: start - 1, center: home, radiusMeters: 30, locationCount: 10),
            JournalVisit(deviceID: phone.id, source: .detected, arrival: start + 170, departure: start + 3_600, center: shop, radiusMeters: 30, locationCount: 10),
        ])
        let origin = try #require(try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false).first)
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/match?trip=\(origin.id.rawValue)&mode=walking", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .ok)
                let match = try #require(response.body.json as? [String: Any])
                #expect(match["roads"] as? [String] == ["Southgate", "Eastgate"])
                // The trip as the journal draws it: from the place left, the 17 fixes, to the place reached.
                #expect(match["matchedFixes"] as? Int == 19)
            }
            try await client.execute(uri: "/api/v1/match?from=2026-05-28T20:00:00Z&to=2026-05-28T21:00:00Z&mode=walking",
                                     method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .ok)
                let match = try #require(response.body.json as? [String: Any])
                #expect(match["mode"] as? String == "walking")
                #expect(match["roads"] as? [String] == ["Southgate", "Eastgate"])
                let distance = try #require(match["distance"] as? Double)
                // 0.0018° east (100 m at 60° N) and 0.0016° north (178 m), from the first fix's point to the last's.
                #expect(distance > 265 && distance < 290, "\(distance)")
                #expect((match["rawDistance"] as? Double ?? 0) > 0)
                let polyline = try #require(match["polyline"] as? [String: Any])
                #expect(polyline["type"] as? String == "MultiLineString")
                #expect((polyline["coordinates"] as? [Any])?.count == 1)
                #expect(match["matchedFixes"] as? Int == 17)
                #expect(match["droppedFixes"] as? Int == 0)
                #expect((match["attribution"] as? String)?.contains("OpenStreetMap") == true)
                #expect(match["fixes"] == nil)
            }
            try await client.execute(uri: "/api/v1/match?from=2026-05-28T20:00:00Z&to=2026-05-28T21:00:00Z&device=phone",
                                     method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/v1/match?from=2026-05-28T00:00:00Z&to=2026-05-30T00:00:00Z", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("at most 24 h"))
            }
            try await client.execute(uri: "/api/v1/match", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/match?trip=x", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/match?trip=999", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/match?from=2026-05-28T20:00:00Z&to=2026-05-28T21:00:00Z&device=watch",
                                     method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/match?from=2026-05-31T00:00:00Z&to=2026-05-31T23:00:00Z", method: .get, headers: Auth.bearer(token)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("coverage"))
            }
            try await client.execute(uri: "/api/v1/match?from=2026-05-28T20:00:00Z&to=2026-05-28T21:00:00Z", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
