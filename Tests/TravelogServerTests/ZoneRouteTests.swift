import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogFormats
import TravelogServer
import TravelogStore

@Suite("Privacy zones")
struct ZoneRouteTests {
    static let ada = ShareRouteTests.ada
    /// A circle of 1,200 m around 48.2, 11.645: of the walk below, the fixes at 11.63 to 11.66 lie inside.
    static let zone = #"{"name":"Home","rule":"hide","circle":{"latitude":48.2,"longitude":11.645,"radiusMeters":1200}}"#
    /// Ten fixes a minute apart on 2 May 2024, east along 48.2 from 11.60 to 11.69.
    static let walk = "time,latitude,longitude\n" + (0..<10).map { "2024-05-02T10:0\($0):00Z,48.2,11.6\($0)\n" }.joined()
    static let insideLongitudes = 11.63...11.66

    static func addZone(_ client: some TestClientProtocol, _ body: String = zone) async throws -> [String: Any] {
        try await client.execute(uri: "/api/v1/zones", method: .post, headers: ShareRouteTests.json(Self.ada), body: ByteBuffer(body)) { response in
            #expect(response.status == .created, "\(response.body.text)")
            return try #require(response.body.json as? [String: Any])
        }
    }

    /// The path a link shows: its segments' positions, and the raw count.
    static func sharedPath(_ client: some TestClientProtocol, _ token: String) async throws -> (segments: [[[Double]]], raw: Int) {
        try await client.execute(uri: "/api/v1/s/\(token)/path?zoom=16", method: .get) { response in
            #expect(response.status == .ok)
            let path = try #require(response.body.json as? [String: Any])
            let raw = try #require((path["properties"] as? [String: Any])?["rawPointCount"] as? Int)
            let features = try #require(path["features"] as? [[String: Any]])
            let segments = features.flatMap { (($0["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]]) ?? [] }
            return (segments, raw)
        }
    }

    @Test("zones are added, listed and removed by the person only; bad ones are precise 400s; a taken name 409; another's 404")
    func api() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let made = try await Self.addZone(client)
            let id = try #require(made["id"] as? Int)
            #expect(made["rule"] as? String == "hide" && made["name"] as? String == "Home" && made["storedFixesInside"] == nil)
            try await client.execute(uri: "/api/v1/zones", method: .get, headers: Self.ada) { response in
                let listed = try #require(response.body.json as? [[String: Any]])
                #expect(listed.count == 1 && (listed.first?["circle"] as? [String: Any])?["radiusMeters"] as? Double == 1200)
            }
            try await client.execute(uri: "/api/v1/zones", method: .post, headers: ShareRouteTests.json(Self.ada),
                                     body: ByteBuffer(Self.zone)) { #expect($0.status == .conflict) }
            for body in [#"{"name":"X","rule":"blur","circle":{"latitude":1,"longitude":2,"radiusMeters":100}}"#,
                         #"{"name":"X","rule":"hide"}"#, #"{"name":"","rule":"hide","circle":{"latitude":1,"longitude":2,"radiusMeters":100}}"#,
                         #"{"name":"X","rule":"drop","circle":{"latitude":91,"longitude":2,"radiusMeters":100}}"#,
                         #"{"name":"X","rule":"drop","polygon":[[[1,2],[3,4]]]}"#, "[]"] {
                try await client.execute(uri: "/api/v1/zones", method: .post, headers: ShareRouteTests.json(Self.ada), body: ByteBuffer(body)) { response in
                    #expect(response.status == .badRequest, "\(body): \(response.body.text)")
                }
            }
            try await client.execute(uri: "/api/v1/zones", method: .get, headers: Auth.bearer(fixture.adaToken)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/zones", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/v1/zones/\(id)", method: .delete, headers: ShareRouteTests.bob) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/zones/\(id)", method: .delete, headers: Self.ada) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/v1/zones/\(id)", method: .delete, headers: Self.ada) { #expect($0.status == .notFound) }
            #expect(try await fixture.app.store.zones(userID: fixture.ada.id).isEmpty)
        }
    }

    @Test("a drop zone: an OwnTracks batch's fixes inside are counted, not stored; those outside are; the phone gets its 200")
    func dropsAtIngest() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            _ = try await Self.addZone(client, Self.zone.replacingOccurrences(of: "hide", with: "drop"))
            let body = "[" + (0..<10).map { #"{"_type":"location","lat":48.2,"lon":11.6\#($0),"tst":\#(1_714_644_000 + 60 * $0),"tid":"ph","acc":8}"# }
                .joined(separator: ",") + "]"
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(body)) { #expect($0.status == .ok) }
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(stored.count == 6)
        #expect(!stored.contains { Self.insideLongitudes.contains($0.location.coordinate.longitude) })
        #expect(try await fixture.app.store.zoneDrops(userID: fixture.ada.id) == [ZoneDropCount(day: "2024-05-02", count: 4)])
    }

    @Test("hide on a share link: the path is cut at the zone, nothing inside is returned, the entry inside not listed; from the next request on, and back once removed")
    func hidesOnShareLink() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await ShareRouteTests.upload(client, Self.walk)
            let device = try #require(try await fixture.app.store.devices(userID: fixture.ada.id).first)
            let arrival = try #require(ISO8601DateFormatter().date(from: "2024-05-02T10:00:00Z"))
            _ = try await fixture.app.store.replaceVisits(deviceID: device.id, source: .file, from: arrival, to: nil, with: [
                JournalVisit(deviceID: device.id, source: .file, arrival: arrival, departure: arrival + 60,
                             center: try Coordinate(latitude: 48.2, longitude: 11.60), radiusMeters: 30, locationCount: 5),
                JournalVisit(deviceID: device.id, source: .file, arrival: arrival + 240, departure: arrival + 300,
                             center: try Coordinate(latitude: 48.2, longitude: 11.645), radiusMeters: 30, locationCount: 5),
            ])
            let made = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02"}"#)
            let token = try #require(made["token"] as? String)
            let before = try await Self.sharedPath(client, token)
            #expect(before.raw == 10 && before.segments.count == 1)
            try await client.execute(uri: "/api/v1/s/\(token)/journal", method: .get) { #expect(($0.body.json as? [Any])?.count == 2) }
            // The zone is made after the link: the very next request applies it.
            let zone = try await Self.addZone(client)
            let after = try await Self.sharedPath(client, token)
            #expect(after.raw == 6)
            #expect(after.segments.count == 2, "pieces, not a line across the zone")
            #expect(!after.segments.joined().contains { Self.insideLongitudes.contains($0[0]) })
            #expect(after.segments.first?.last?[0] == 11.62 && after.segments.last?.first?[0] == 11.67)
            try await client.execute(uri: "/api/v1/s/\(token)/journal", method: .get) { response in
                let entries = try #require(response.body.json as? [[String: Any]])
                #expect(entries.count == 1 && entries.first?["longitude"] as? Double == 11.60)
            }
            let id = try #require(zone["id"] as? Int)
            try await client.execute(uri: "/api/v1/zones/\(id)", method: .delete, headers: Self.ada) { #expect($0.status == .noContent) }
            #expect(try await Self.sharedPath(client, token).raw == 10)
        }
    }

    @Test("a live link withholds the latest position while it lies inside a zone")
    func withholdsLatest() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let made = try await ShareRouteTests.create(client, #"{"kind":"live","forSeconds":3600}"#)
            let token = try #require(made["token"] as? String)
            let earlier = ISO8601TimeFormatter.string(Date(timeIntervalSinceNow: -120)), now = ISO8601TimeFormatter.string(Date())
            try await ShareRouteTests.upload(client, "time,latitude,longitude\n\(earlier),48.2,11.60\n\(now),48.2,11.645\n")
            func latest() async throws -> [[String: Any]] {
                try await client.execute(uri: "/api/v1/s/\(token)/latest", method: .get) { response in
                    #expect(response.status == .ok)
                    return try #require((response.body.json as? [String: Any])?["features"] as? [[String: Any]])
                }
            }
            #expect(try await latest().count == 1)
            _ = try await Self.addZone(client)
            #expect(try await latest().isEmpty, "withheld, not replaced by the fix before the zone")
            try await client.execute(uri: "/api/v1/s/\(token)/path", method: .get) { #expect(!$0.body.text.contains("11.645")) }
        }
    }

    @Test("a drop zone over stored history says how many fixes lie inside; DELETE …/fixes deletes them and only them")
    func deletesStoredFixes() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await ShareRouteTests.upload(client, Self.walk)
            let made = try await Self.addZone(client, Self.zone.replacingOccurrences(of: "hide", with: "drop"))
            #expect(made["storedFixesInside"] as? Int == 4)
            let id = try #require(made["id"] as? Int)
            try await client.execute(uri: "/api/v1/zones/\(id)/fixes", method: .delete, headers: ShareRouteTests.bob) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/zones/\(id)/fixes", method: .delete, headers: Self.ada) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["deleted"] as? Int == 4)
            }
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(stored.count == 6 && !stored.contains { Self.insideLongitudes.contains($0.location.coordinate.longitude) })
        #expect(try await fixture.app.store.deviceSummaries(userID: fixture.ada.id).first?.locationCount == 6)
    }
}
