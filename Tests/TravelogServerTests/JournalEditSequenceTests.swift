import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer

/// Edits that compose: what a sequence of a person's edits leaves is what they asked for.
@Suite("Journal edits in sequence")
struct JournalEditSequenceTests {
    @Test("merge with the next entry, then delete the merged entry: both are gone, in every read of the journal (issue 26)")
    func mergeThenDelete() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let entries = try await JournalRouteTests.postMorning(client, fixture)
            try #require(entries.count == 3)
            let ids = entries.compactMap { $0["id"] as? Int }
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: auth,
                                     body: ByteBuffer(#"{"ids":[\#(ids[0]),\#(ids[1])]}"#)) { #expect($0.status == .ok) }
            #expect(try await JournalRouteTests.entries(client, auth).compactMap { $0["id"] as? Int } == [ids[0], ids[2]])
            try await client.execute(uri: "/api/v1/visits/\(ids[0])", method: .delete, headers: auth) { #expect($0.status == .noContent) }
            #expect(try await JournalRouteTests.entries(client, auth).compactMap { $0["id"] as? Int } == [ids[2]])
            // A day's range, which starts after the merged entry began, and the trips between entries agree.
            #expect(try await JournalRouteTests.entries(client, auth, query: "?from=2024-06-01T09:00:00Z&to=2024-06-02T00:00:00Z")
                .compactMap { $0["id"] as? Int } == [ids[2]])
            try await client.execute(uri: "/api/v1/trips", method: .get, headers: auth) { response in
                #expect((response.body.json as? [[String: Any]])?.isEmpty == true, "no trip leads to or from deleted entries")
            }
            // Processing the history again keeps the decision.
            try await client.execute(uri: "/api/v1/journal/process", method: .post, headers: auth.adding("Content-Type", "application/json"),
                                     body: ByteBuffer("{}")) { #expect($0.status.code < 300) }
            #expect(try await JournalRouteTests.entries(client, auth).compactMap { $0["id"] as? Int } == [ids[2]])
            let hidden = try await JournalRouteTests.entries(client, auth, query: "?hidden=true")
            #expect(hidden.count == 2, "the deleted entry is still listed with hidden=true, over the one merged into it")
        }
    }
}
