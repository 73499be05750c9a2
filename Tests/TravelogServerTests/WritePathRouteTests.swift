import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogAccounts
import TravelogServer
import TravelogStore

@Suite("The write path as phones and scripts meet it")
struct WritePathRouteTests {
    @Test("speed 0, course 0, accuracy 1 and latitude 0 are numbers, stored as sent")
    func zerosAndOnes() async throws {
        let fixture = try await ServerFixture.make()
        let body = #"[{"latitude":0,"longitude":1,"timestamp":"2024-03-01T09:00:00Z","speed":0,"course":0,"accuracy":1,"altitude":0}]"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(body)) { response in
                #expect(response.status == .ok, "\(response.body.text)")
            }
        }
        let fix = try #require(try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id)).first?.location)
        #expect(fix.coordinate.latitude == 0 && fix.coordinate.longitude == 1)
        #expect(fix.speedMetersPerSecond == 0 && fix.courseDegrees == 0 && fix.horizontalAccuracyMeters == 1 && fix.altitudeMeters == 0)
    }

    @Test("a stored accuracy of 1e20 (from before values were checked) no longer kills the OwnTracks answer")
    func poisonedFriend() async throws {
        let fixture = try await ServerFixture.make()
        let (other, _) = try await fixture.app.accounts.addDevice(named: "tablet", userID: fixture.ada.id, app: nil)
        var poisoned = Location(coordinate: Coordinate(validLatitude: 52.5, longitude: 13.4)!, altitudeMeters: 1e308,
                                horizontalAccuracyMeters: 1e20, speedMetersPerSecond: 1e20, courseDegrees: 1e20,
                                timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        poisoned.verticalAccuracyMeters = 1e20
        // Written past the write path, as an older version did.
        _ = try await fixture.app.store.insert([StoredLocation(deviceID: other.id, location: poisoned, source: .api)])
        let post = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1700000100,"acc":5,"vel":0,"cog":0}"#
        try await fixture.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                         body: ByteBuffer(post)) { response in
                    #expect(response.status == .ok)
                    let messages = try #require(response.body.json as? [[String: Any]])
                    let location = try #require(messages.first { $0["_type"] as? String == "location" })
                    #expect(location["acc"] == nil && location["alt"] == nil && location["vel"] == nil && location["cog"] == nil)
                    #expect(location["tst"] as? Int == 1_700_000_000)
                }
            }
            try await client.execute(uri: "/api/v1/locations", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .ok)
                #expect(response.body.json != nil, "valid JSON: \(response.body.text.prefix(300))")
                #expect(!response.body.text.contains("inf"))
            }
        }
    }

    @Test("absurd values are refused on every route: the script API says which, the phone routes set them aside",
          arguments: ["altitude", "horizontal_accuracy", "speed"])
    func absurdValues(field: String) async throws {
        let fixture = try await ServerFixture.make()
        let overland = #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-01-01T00:00:00Z","\#(field)":1e308}}]}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(overland)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/latest", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.body.json != nil)
                #expect(!response.body.text.contains("inf"))
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 1)
    }

    @Test("a body over the limit is a 413 with the JSON error, before it is read when Content-Length says so")
    func tooLarge() async throws {
        let fixture = try await ServerFixture.make(configuration: ServerConfiguration(port: 0, bcryptCost: 4, maxBodyBytes: 1000))
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(overlandBatch(count: 20))) { response in
                #expect(response.status == .contentTooLarge)
                #expect((response.body.json as? [String: String])?["error"]?.contains("1000 bytes") == true, "\(response.body.text)")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
    }

    @Test("the rejected items are the user's own, listed newest first and deletable one by one or all at once")
    func rejectedRoutes() async throws {
        let fixture = try await ServerFixture.make()
        let bad = #"{"_type":"location","lat":95,"lon":13.4,"tst":1700000005}"#
        let worse = #"{"_type":"location","lon":13.4,"tst":1700000006}"#
        try await fixture.test { client in
            for body in [bad, worse] {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                         body: ByteBuffer(body)) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/api/v1/rejected", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) { response in
                #expect((response.body.json as? [String: Any])?["total"] as? Int == 0)
            }
            let ids = try await client.execute(uri: "/api/v1/rejected?limit=1", method: .get,
                                               headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                let answer = try #require(response.body.json as? [String: Any])
                #expect(answer["total"] as? Int == 2)
                return (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            }
            #expect(ids.count == 1)
            try await client.execute(uri: "/api/v1/rejected/\(ids[0])", method: .delete,
                                     headers: Auth.basic("bob", ServerFixture.bobPassword)) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/rejected/\(ids[0])", method: .delete,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/rejected?limit=5000", method: .get,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/rejected", method: .delete,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect((response.body.json as? [String: Int])?["deleted"] == 1)
            }
        }
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 0)
    }
}
