import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogServer
import TravelogStore

@Suite("The regions API")
struct RegionRouteTests {
    static let home = #"{"name":"Home","circle":{"latitude":52.52,"longitude":13.405,"radiusMeters":150}}"#

    static func create(_ client: some TestClientProtocol, _ headers: HTTPFields, _ body: String) async throws -> Int64 {
        try await client.execute(uri: "/api/v1/regions", method: .post, headers: headers, body: ByteBuffer(body)) { response in
            #expect(response.status == .created)
            return try #require((response.body.json as? [String: Any])?["id"] as? Int64)
        }
    }

    @Test("a region is created, listed with each device's state, renamed, and removed")
    func crud() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let id = try await Self.create(client, auth, Self.home)
            try await client.execute(uri: "/api/v1/regions", method: .post, headers: auth, body: ByteBuffer(Self.home)) {
                #expect($0.status == .conflict)
            }
            try await client.execute(uri: "/api/v1/regions", method: .get, headers: auth) { response in
                let list = try #require(response.body.json as? [[String: Any]])
                #expect(list.count == 1)
                #expect(list.first?["name"] as? String == "Home")
                #expect((list.first?["circle"] as? [String: Any])?["radiusMeters"] as? Double == 150)
                #expect(list.first?["notifyOnEntry"] as? Bool == true)
                #expect((list.first?["states"] as? [[String: Any]])?.first?["state"] as? String == "unknown")
            }
            let polygon = #"{"name":"Park","polygon":[[[13.30,52.50],[13.32,52.50],[13.32,52.52],[13.30,52.52],[13.30,52.50]]],"notifyOnExit":false}"#
            try await client.execute(uri: "/api/v1/regions/\(id)", method: .put, headers: auth, body: ByteBuffer(polygon)) { response in
                #expect(response.status == .ok)
                let region = try #require(response.body.json as? [String: Any])
                #expect(region["name"] as? String == "Park")
                #expect((region["polygon"] as? [[[Double]]])?.first?.count == 5)
                #expect(region["notifyOnExit"] as? Bool == false)
            }
            try await client.execute(uri: "/api/v1/regions/\(id)", method: .delete, headers: auth) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/v1/regions/\(id)", method: .get, headers: auth) { #expect($0.status == .notFound) }
            // A phone's token reads but does not change regions.
            try await client.execute(uri: "/api/v1/regions", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(Self.home)) { #expect($0.status == .forbidden) }
        }
    }

    @Test("a region that cannot be monitored is a 400", arguments: [
        #"{"name":"Zero","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":0}}"#,
        #"{"name":"Negative","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":-150}}"#,
        #"{"name":"Huge","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":1e12}}"#,
        #"{"name":"Infinite","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":1e400}}"#,
        #"{"name":"Pole","circle":{"latitude":91,"longitude":13.4,"radiusMeters":150}}"#,
        #"{"name":"Beyond","circle":{"latitude":52.5,"longitude":-181,"radiusMeters":150}}"#,
        #"{"name":"Wrapped","polygon":[[[193.30,52.50],[193.32,52.50],[193.32,52.52]]]}"#,
        #"{"name":"Line","polygon":[[[13.30,52.50],[13.32,52.50],[13.30,52.50]]]}"#,
        #"{"name":"Empty","polygon":[]}"#,
        #"{"name":"Both","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":150},"polygon":[[[13.3,52.5],[13.32,52.5],[13.32,52.52]]]}"#,
        #"{"name":"Neither"}"#,
        #"{"name":"","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":150}}"#,
        #"{"name":"Beacon","circle":{"latitude":52.5,"longitude":13.4,"radiusMeters":150},"beacon":{"uuid":"nope"}}"#,
    ])
    func hostile(body: String) async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/regions", method: .post, headers: auth, body: ByteBuffer(body)) { response in
                #expect(response.status == .badRequest)
                #expect((response.body.json as? [String: Any])?["error"] is String)
            }
            try await client.execute(uri: "/api/v1/regions", method: .get, headers: auth) { #expect($0.body.text == "[]") }
        }
    }

    @Test("another user's region is a 404, whatever the method")
    func otherUsers() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let bobs = try await Self.create(client, Auth.basic("bob", ServerFixture.bobPassword), Self.home)
            let ada = Auth.basic("ada", ServerFixture.adaPassword)
            try await client.execute(uri: "/api/v1/regions/\(bobs)", method: .get, headers: ada) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/regions/\(bobs)", method: .put, headers: ada, body: ByteBuffer(Self.home)) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/regions/\(bobs)", method: .delete, headers: ada) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/regions/transitions?region=\(bobs)", method: .get, headers: ada) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/regions/\(bobs)", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test("posted locations that leave and come back cross the region: an exit and an entry, in a time range")
    func transitions() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let id = try await Self.create(client, auth, Self.home)
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(JournalRouteTests.morningBody())) { #expect($0.status == .ok) }
            let all = try await client.execute(uri: "/api/v1/regions/transitions", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                return try #require(response.body.json as? [[String: Any]])
            }
            #expect(all.map { $0["transition"] as? String } == ["exit", "enter"])
            #expect(all.map { $0["regionName"] as? String } == ["Home", "Home"])
            #expect(all.map { $0["region"] as? Int64 } == [id, id])
            #expect(all.map { $0["device"] as? String } == ["phone", "phone"])
            #expect(all.map { $0["source"] as? String } == ["detected", "detected"])
            // Left at 08:0x UTC, back at 12:3x UTC on 2024-06-01.
            let times = all.compactMap { $0["time"] as? String }
            #expect(times.first?.hasPrefix("2024-06-01T08:0") == true)
            #expect(times.last?.hasPrefix("2024-06-01T12:3") == true)
            try await client.execute(uri: "/api/v1/regions/transitions?from=2024-06-01T10:00:00Z&region=\(id)", method: .get, headers: auth) {
                #expect(($0.body.json as? [[String: Any]])?.map { $0["transition"] as? String } == ["enter"])
            }
            try await client.execute(uri: "/api/v1/regions/transitions?from=yesterday", method: .get, headers: auth) {
                #expect($0.status == .badRequest)
            }
            // Old history: stored, but nobody is told.
            #expect(try await fixture.app.store.deliveries(userID: fixture.ada.id, limit: 10).isEmpty)
            try await client.execute(uri: "/api/v1/regions", method: .get, headers: auth) { response in
                let states = (response.body.json as? [[String: Any]])?.first?["states"] as? [[String: Any]]
                #expect(states?.first { $0["device"] as? String == "phone" }?["state"] as? String == "inside")
            }
        }
    }
    @Test("a live crossing is queued once for each notification channel, however often its fixes are posted")
    func liveNotification() async throws {
        let fixture = try await ServerFixture.make()
        _ = try await fixture.app.store.addChannel(userID: fixture.ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/ada")!, token: nil))
        let start = Date().addingTimeInterval(-600)
        let fixes = (0..<40).map { index -> String in
            let longitude = 13.405 + (index >= 15 ? 0.015 : 0)
            return #"{"latitude":52.52,"longitude":\#(longitude),"timestamp":\#(start.timeIntervalSince1970 + Double(index) * 10),"horizontalAccuracy":5}"#
        }
        let body = "[" + fixes.joined(separator: ",") + "]"
        try await fixture.test { client in
            _ = try await Self.create(client, Auth.basic("ada", ServerFixture.adaPassword), Self.home)
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                         body: ByteBuffer(body)) { #expect($0.status == .ok) }
            }
        }
        let deliveries = try await fixture.app.store.deliveries(userID: fixture.ada.id, limit: 10)
        #expect(deliveries.map(\.message.event) == ["regionExit"])
        #expect(deliveries.first?.message.title == "Left: Home")
        #expect(deliveries.first?.message.key.hasPrefix("region-") == true)
    }
}
