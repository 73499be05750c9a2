import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogSQLite
import TravelogServer
import TravelogStore

@Suite("Overland")
struct OverlandRouteTests {
    @Test("a batch of 40,000 points (over 10 MB) is stored and answered with exactly {\"result\":\"ok\"}")
    func largeBatch() async throws {
        let fixture = try await ServerFixture.make()
        let body = overlandBatch(count: 40_000)
        #expect(body.utf8.count > 10_000_000)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(body)) { response in
                #expect(response.status == .ok)
                #expect(response.body.text == #"{"result":"ok"}"#)
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 40_000)
    }

    @Test("the token may come in the query; features without geometry (visits, app events) are accepted")
    func tokenInQueryAndVisits() async throws {
        let fixture = try await ServerFixture.make()
        let body = #"{"locations":[{"type":"Feature","geometry":null,"properties":{"action":"visit","arrival_date":"2023-11-14T22:00:00Z","departure_date":null}},"#
            + #"{"type":"Feature","properties":{"action":"app_paused"}},"#
            + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2023-11-14T23:13:20+01:00","speed":-1}}],"#
            + #""current":{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2023-11-14T23:13:20+01:00"}}}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland?token=\(fixture.adaToken)", method: .post, body: ByteBuffer(body)) { response in
                #expect(response.status == .ok)
                #expect(response.body.text == #"{"result":"ok"}"#)
            }
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(stored.count == 1)
        #expect(stored.first?.location.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(stored.first?.location.utcOffsetSeconds == 3600)
    }

    @Test("one bad feature is set aside for the user and the others are stored; a retry stores nothing twice")
    func keepsGoodItems() async throws {
        let fixture = try await ServerFixture.make()
        let bad = overlandBatch(count: 10).replacingOccurrences(of: #""timestamp":"2023-11-14T22:13:25Z""#, with: #""timestamp":"yesterday""#)
        try await fixture.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                         body: ByteBuffer(bad)) { response in
                    #expect(response.status == .ok)
                    #expect(response.body.text == #"{"result":"ok"}"#)
                }
            }
            try await client.execute(uri: "/api/v1/rejected", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .ok)
                let answer = try #require(response.body.json as? [String: Any])
                #expect(answer["total"] as? Int == 1)
                let item = try #require((answer["items"] as? [[String: Any]])?.first)
                #expect(item["route"] as? String == "overland")
                #expect(item["device"] as? String == "phone")
                #expect((item["reason"] as? String)?.contains("item 5") == true)
                #expect((item["reason"] as? String)?.contains("yesterday") == true)
                #expect((item["raw"] as? String)?.hasPrefix(#"{"type":"Feature""#) == true, "\(item["raw"] ?? "")")
                #expect((item["raw"] as? String)?.contains("yesterday") == true)
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 9)
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 1)
    }

    @Test("a body that breaks off is stored up to the break, the rest set aside, and the app still hears ok")
    func brokenBody() async throws {
        let fixture = try await ServerFixture.make()
        let whole = overlandBatch(count: 4)
        let cut = String(whole.prefix(whole.count - 60))
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(cut)) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer("{\"locations\": [")) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(" \n")) { #expect($0.status == .ok) }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 3)
        let reasons = try await fixture.app.store.rejectedItems(userID: fixture.ada.id, limit: 10).map(\.reason)
        #expect(reasons.count == 2)
        #expect(reasons.allSatisfy { $0.contains("not valid from here on") }, "\(reasons)")
    }

    @Test("a body of nothing but bad items, sent with a password for a new device, creates no device")
    func noDeviceForNothing() async throws {
        let fixture = try await ServerFixture.make()
        let bad = #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,95]},"properties":{"timestamp":"2024-01-01T00:00:00Z"}}]}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland?device=new-phone", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(bad)) { #expect($0.status == .ok) }
        }
        #expect(try await fixture.app.store.device(named: "new-phone", userID: fixture.ada.id) == nil)
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 1)
    }
}

@Suite("Overland's own visits")
struct OverlandVisitTests {
    @Test("a visit Overland reports is kept in the journal with its source, once however often it is sent")
    func overlandVisit() async throws {
        let fixture = try await ServerFixture.make()
        let body = #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.405,52.52]},"#
            + #""properties":{"action":"visit","arrival_date":"2024-06-01T08:00:00Z","departure_date":"2024-06-01T09:30:00Z","horizontal_accuracy":20}}]}"#
        try await fixture.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                         body: ByteBuffer(body)) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/api/v1/visits", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                let entries = try #require(response.body.json as? [[String: Any]])
                #expect(entries.count == 1)
                #expect(entries.first?["source"] as? String == "overland")
                #expect(entries.first?["localDeparture"] as? String == "2024-06-01T11:30:00+02:00")
            }
        }
    }
}
