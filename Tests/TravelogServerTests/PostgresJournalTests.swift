import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogJournal
import TravelogPostgres
@testable import TravelogServer
import TravelogStore

/// The journal of one phone whose uploads reach two server processes on one PostgreSQL database.
@Suite("The journal across servers on PostgreSQL")
struct PostgresJournalTests {
    static func visits(_ client: some TestClientProtocol) async throws -> [String] {
        try await client.execute(uri: "/api/v1/visits", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
            #expect(response.status == .ok)
            let entries = try #require(response.body.json as? [[String: Any]])
            return entries.map { entry in
                let center = String(format: "%.6f,%.6f", entry["latitude"] as? Double ?? .nan, entry["longitude"] as? Double ?? .nan)
                return "\(entry["arrival"] as? String ?? "?")…\(entry["departure"] as? String ?? "now") \(center)"
            }
        }
    }

    @Test("batches of one phone taken in turn by two servers and a command give the journal a full re-processing gives",
          .enabled(if: PostgresLiveFeedTests.server != nil,
                   "TRAVELOG_TEST_POSTGRES_URL is not set: the journal across servers was not tested"))
    func batchesInTurn() async throws {
        let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let configuration = ServerConfiguration(port: 0, bcryptCost: 4)
        let first = TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                                      configuration: configuration, gazetteer: try ServerFixture.gazetteer())
        let second = TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                                       configuration: configuration, gazetteer: try ServerFixture.gazetteer())
        let ada = try await first.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await first.accounts.addDevice(named: "phone", userID: ada.id, app: .overland, scope: .write)
        // The first server takes most batches, the second one some, a command two: each server's
        // journal goes on from where it stood only when nothing else has worked on the phone since.
        let batches = JournalConcurrentUploadTests.morningBatches(size: 20)
        try await first.makeApplication().test(.router) { one in
            try await second.makeApplication().test(.router) { other in
                let phone = try #require(try await second.store.device(named: "phone", userID: ada.id))
                for (index, body) in batches.enumerated() {
                    // The command takes the batches of the arrivals at work and back home; the first server
                    // takes the batch after each.
                    if index == 7 || index == 19 {
                        // A command (`travelog import --db postgres://…`): stored and processed in a process
                        // of its own, without a server.
                        let reader = GeoJSONReader(source: MemoryByteSource(Array(body.utf8)))
                        var fixes: [Location] = []
                        while let record = try reader.next() {
                            if case .point(let point) = record, let location = point.position.location { fixes.append(location) }
                        }
                        _ = try await second.store.insert(fixes.map { StoredLocation(deviceID: phone.id, location: $0, source: .fileImport) })
                        _ = try await JournalProcessor(store: second.store, describer: nil)
                            .process(device: phone, from: fixes.first?.timestamp, to: fixes.last?.timestamp)
                        continue
                    }
                    let (client, app) = [2, 5, 11, 14, 17, 23].contains(index) ? (other, second) : (one, first)
                    try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token),
                                             body: ByteBuffer(string: body)) { #expect($0.status == .ok) }
                    await app.journal.drain()
                    if index == 8 || index == 20 {
                        // Right after the command's batch: a later read-back would mend what this misses.
                        let now = try await Self.visits(one)
                        try await other.execute(uri: "/api/v1/journal/process", method: .post,
                                                headers: Auth.basic("ada", ServerFixture.adaPassword)) { #expect($0.status == .ok) }
                        #expect(try await Self.visits(one) == now, "after batch \(index)")
                    }
                }
                let found = try await Self.visits(one)
                #expect(found.count == 3, "home, work, home: \(found)")
                try await other.execute(uri: "/api/v1/journal/process", method: .post,
                                        headers: Auth.basic("ada", ServerFixture.adaPassword)) { #expect($0.status == .ok) }
                let again = try await Self.visits(one)
                #expect(again == found)
            }
        }
    }
}
