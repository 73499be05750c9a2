import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogPostgres
import TravelogStore
@testable import TravelogServer

/// Retention through the API, on SQLite and (with `scripts/with-postgres.sh`) PostgreSQL: a sequence
/// of edits (set, import old data, preview, run, a late old fix, change the period and the journal's
/// choice, the server's default, off), and who may reach it.
@Suite("Retention")
struct RetentionRouteTests {
    static let ada = ShareRouteTests.ada
    static let day = 86_400.0

    /// Fixes `daysAgo` days before now, each ~11 km from the last (no stay for the journal to find).
    static func csv(_ daysAgo: [Double], now: Date) -> String {
        "time,latitude,longitude\n" + daysAgo.enumerated().map { index, ago in
            "\(ISO8601TimeFormatter.string(now.addingTimeInterval(-ago * day))),48.\(index + 1),11.5\n"
        }.joined()
    }

    static func put(_ client: some TestClientProtocol, _ body: String, expect status: HTTPResponse.Status = .ok) async throws -> [String: Any] {
        try await client.execute(uri: "/api/v1/account/retention", method: .put, headers: ShareRouteTests.json(ada), body: ByteBuffer(body)) { response in
            #expect(response.status == status, "\(body): \(response.body.text)")
            return response.body.json as? [String: Any] ?? [:]
        }
    }

    static func get(_ client: some TestClientProtocol, _ path: String) async throws -> [String: Any] {
        try await client.execute(uri: "/api/v1/account/retention\(path)", method: .get, headers: ada) { response in
            #expect(response.status == .ok, "\(path): \(response.body.text)")
            return try #require(response.body.json as? [String: Any])
        }
    }

    static func run(_ client: some TestClientProtocol, expect status: HTTPResponse.Status = .ok) async throws -> [String: Any] {
        try await client.execute(uri: "/api/v1/account/retention/run", method: .post, headers: ada) { response in
            #expect(response.status == status, "\(response.body.text)")
            return response.body.json as? [String: Any] ?? [:]
        }
    }

    /// The whole sequence against one server (`app`, whose store has ada with `password`-less Basic
    /// credentials as `ShareRouteTests.ada`, and a phone token). The server's default is 5 days.
    static func sequence(app: TravelogServerApp, ada user: User, phoneToken: String) async throws {
        let now = Date()
        let store = app.store
        // Two journal entries of a device without fixes: one ended 900 days ago, one 100 days ago.
        let diary = try await store.addDevice(named: "diary", userID: user.id)
        let center = Coordinate(validLatitude: 47, longitude: 8)!
        _ = try await store.replaceVisits(deviceID: diary.id, source: .detected, from: now.addingTimeInterval(-1000 * day), to: nil, with: [
            JournalVisit(deviceID: diary.id, source: .detected, arrival: now.addingTimeInterval(-901 * day),
                         departure: now.addingTimeInterval(-900 * day), center: center, radiusMeters: 50, locationCount: 5),
            JournalVisit(deviceID: diary.id, source: .detected, arrival: now.addingTimeInterval(-101 * day),
                         departure: now.addingTimeInterval(-100 * day), center: center, radiusMeters: 50, locationCount: 5),
        ])
        @Sendable func diaryVisits() async throws -> Int {
            try await store.visits(userID: user.id, deviceIDs: [diary.id], from: nil, to: nil, includeHidden: true).count
        }
        @Sendable func stored() async throws -> Int { try await store.locations(LocationQuery(userID: user.id)).count }
        try await app.makeApplication().test(.router) { client in
            var shown = try await get(client, "")
            #expect(shown["source"] as? String == "server" && shown["period"] as? String == "5d" && shown["lastRun"] == nil)
            _ = try await put(client, #"{"period":"18m"}"#, expect: .badRequest)
            _ = try await put(client, #"{"period":"0d"}"#, expect: .badRequest)
            _ = try await put(client, #"{"period":"400d","journal":"shred"}"#, expect: .badRequest)
            _ = try await put(client, #"{"period":"default","journal":"delete"}"#, expect: .badRequest)
            shown = try await put(client, #"{"period":"400d"}"#)
            #expect(shown["source"] as? String == "user" && shown["days"] as? Int == 400 && shown["journal"] as? String == "keep")

            // Old data imported: 3 fixes older than 400 days, 2 of about 300 days, 2 recent.
            try await ShareRouteTests.upload(client, csv([1000, 999, 998, 300, 299, 10, 9], now: now))
            #expect(try await stored() == 7)
            var preview = try await get(client, "/preview")
            #expect(preview["fixes"] as? Int == 3 && preview["journalEntries"] as? Int == 1 && preview["journal"] as? String == "keep")
            let devices = try #require(preview["devices"] as? [[String: Any]])
            #expect(devices.count == 1 && devices.first?["device"] as? String == "imports" && devices.first?["fixes"] as? Int == 3)
            var ran = try await run(client)
            #expect(ran["deletedFixes"] as? Int == 3 && ran["deletedVisits"] as? Int == 0)
            var counts = (fixes: try await stored(), visits: try await diaryVisits())
            #expect(counts.fixes == 4 && counts.visits == 2)

            // A phone's late queue: a fix of 800 days ago is taken (200, the queue moves on), stored,
            // and goes at the next run.
            let late = #"{"_type":"location","lat":48.9,"lon":11.9,"tst":\#(Int(now.timeIntervalSince1970 - 800 * day)),"tid":"ph","acc":8}"#
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic(user.name, phoneToken),
                                     body: ByteBuffer(late)) { #expect($0.status == .ok) }
            #expect(try await stored() == 5)
            ran = try await run(client)
            #expect(ran["deletedFixes"] as? Int == 1)
            #expect(try await stored() == 4)

            // A shorter period, and the journal deleted with the fixes.
            shown = try await put(client, #"{"period":"30d","journal":"delete"}"#)
            #expect(shown["days"] as? Int == 30 && shown["journal"] as? String == "delete")
            preview = try await get(client, "/preview")
            #expect(preview["fixes"] as? Int == 2 && preview["journalEntries"] as? Int == 2)
            ran = try await run(client)
            #expect(ran["deletedFixes"] as? Int == 2 && ran["deletedVisits"] as? Int == 2)
            counts = (fixes: try await stored(), visits: try await diaryVisits())
            #expect(counts.fixes == 2 && counts.visits == 0)
            shown = try await get(client, "")
            #expect((shown["lastRun"] as? [String: Any])?["deletedFixes"] as? Int == 2)

            // Off: nothing goes, whatever the server's default; a run is a 409.
            _ = try await put(client, #"{"period":"off"}"#)
            preview = try await get(client, "/preview")
            #expect(preview["fixes"] as? Int == 0 && preview["cutoff"] == nil && preview["period"] as? String == "off")
            _ = try await run(client, expect: .conflict)
            #expect(try await stored() == 2)

            // Back to the server's default (5 days): the background round deletes the two recent fixes.
            shown = try await put(client, #"{"period":"default"}"#)
            #expect(shown["source"] as? String == "server" && shown["period"] as? String == "5d")
        }
        let service = RetentionService(retention: app.retention, tiles: app.tiles, logger: Logger(label: "test"))
        let runs = try await service.runOnce()
        #expect(runs[user.id]?.deletedFixes == 2)
        #expect(try await stored() == 0)
    }

    @Test("a sequence of edits on SQLite: set, import old data, preview, run, a late old fix, a shorter period with the journal, off, the default")
    func sequenceOnSQLite() async throws {
        var configuration = ServerConfiguration(port: 0, bcryptCost: 4)
        configuration.retentionDefault = try RetentionSetting(days: 5)
        let fixture = try await ServerFixture.make(configuration: configuration, withGazetteer: false)
        try await Self.sequence(app: fixture.app, ada: fixture.ada, phoneToken: fixture.adaToken)
    }

    @Test("the same sequence on PostgreSQL",
          .enabled(if: PostgresLiveFeedTests.server != nil, "TRAVELOG_TEST_POSTGRES_URL is not set: retention on PostgreSQL was not tested"))
    func sequenceOnPostgres() async throws {
        let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var configuration = ServerConfiguration(port: 0, bcryptCost: 4)
        configuration.retentionDefault = try RetentionSetting(days: 5)
        let app = TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                                    configuration: configuration, gazetteer: nil)
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .write)
        try await Self.sequence(app: app, ada: ada, phoneToken: token)
    }

    @Test("only the person: a device token (read or write) is a 403, no credentials a 401; each person sees their own")
    func access() async throws {
        let fixture = try await ServerFixture.make(withGazetteer: false)
        try await fixture.test { client in
            _ = try await Self.put(client, #"{"period":"2y","journal":"delete"}"#)
            let token = Auth.bearer(fixture.adaToken)
            for (path, method) in [("", HTTPRequest.Method.get), ("", .put), ("/preview", .get), ("/run", .post)] {
                try await client.execute(uri: "/api/v1/account/retention\(path)", method: method, headers: ShareRouteTests.json(token),
                                         body: ByteBuffer(#"{"period":"1d"}"#)) { #expect($0.status == .forbidden, "\(method) \(path)") }
                try await client.execute(uri: "/api/v1/account/retention\(path)", method: method) { #expect($0.status == .unauthorized) }
            }
            try await client.execute(uri: "/api/v1/account/retention", method: .get, headers: ShareRouteTests.bob) { response in
                let shown = try #require(response.body.json as? [String: Any])
                #expect(shown["source"] as? String == "none" && shown["period"] as? String == "off")
            }
        }
        #expect(try await fixture.app.store.retentionSetting(userID: fixture.ada.id) == (try RetentionSetting(days: 730, journal: .delete)))
    }
}
