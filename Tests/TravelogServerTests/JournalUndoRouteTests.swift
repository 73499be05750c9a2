import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogJournal
import TravelogServer

/// Undoing a deletion and a merge (issue 26): `PATCH /api/v1/visits/{id}` with `deleted: false` or
/// `merged: false`.
@Suite("Journal undo")
struct JournalUndoRouteTests {
    static let auth = Auth.basic("ada", ServerFixture.adaPassword)

    static func patch(_ client: some TestClientProtocol, _ id: Int, _ body: String) async throws -> (HTTPResponse.Status, [String: Any]?) {
        try await client.execute(uri: "/api/v1/visits/\(id)", method: .patch, headers: auth, body: ByteBuffer(body)) { response in
            (response.status, response.body.json as? [String: Any])
        }
    }

    static func spans(_ entries: [[String: Any]]) -> [String] {
        entries.map { "\($0["id"] as? Int ?? -1) \($0["arrival"] as? String ?? "?")–\($0["departure"] as? String ?? "…")" }
    }

    @Test("merge, delete, restore, unmerge: each step is undone exactly, the title stays, and re-processing keeps it")
    func mergeDeleteRestoreUnmerge() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let original = try await JournalRouteTests.postMorning(client, fixture)
            try #require(original.count == 3)
            let ids = original.compactMap { $0["id"] as? Int }
            #expect(try await Self.patch(client, ids[0], #"{"title":"Breakfast"}"#).0 == .ok)
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: Self.auth,
                                     body: ByteBuffer(#"{"ids":[\#(ids[0]),\#(ids[1])]}"#)) { #expect($0.status == .ok) }
            let merged = try await JournalRouteTests.entries(client, Self.auth)
            #expect(merged.compactMap { $0["id"] as? Int } == [ids[0], ids[2]])
            #expect(merged.first?["departure"] as? String == original[1]["departure"] as? String)
            try await client.execute(uri: "/api/v1/visits/\(ids[0])", method: .delete, headers: Self.auth) { #expect($0.status == .noContent) }
            #expect(try await JournalRouteTests.entries(client, Self.auth).compactMap { $0["id"] as? Int } == [ids[2]])

            // Restored: the merged entry is back whole, with its title (the body names no title).
            let (restoredStatus, restored) = try await Self.patch(client, ids[0], #"{"deleted":false}"#)
            #expect(restoredStatus == .ok)
            #expect(restored?["hidden"] as? Bool == false)
            #expect(restored?["place"] as? String == "Breakfast")
            #expect(Self.spans(try await JournalRouteTests.entries(client, Self.auth)) == Self.spans(merged))

            // Unmerged: the three entries as they were, and the first keeps its title.
            let (unmergedStatus, unmerged) = try await Self.patch(client, ids[0], #"{"merged":false}"#)
            #expect(unmergedStatus == .ok)
            #expect(unmerged?["departure"] as? String == original[0]["departure"] as? String)
            var entries = try await JournalRouteTests.entries(client, Self.auth)
            #expect(Self.spans(entries) == Self.spans(original))
            #expect(entries.map { $0["place"] as? String } == ["Breakfast", original[1]["place"] as? String, original[2]["place"] as? String])

            // Processing the history again changes none of it.
            try await client.execute(uri: "/api/v1/journal/process", method: .post, headers: Self.auth) { #expect($0.status == .ok) }
            entries = try await JournalRouteTests.entries(client, Self.auth)
            #expect(Self.spans(entries) == Self.spans(original))
            #expect(entries.first?["place"] as? String == "Breakfast")
        }
    }

    @Test("a restored entry stays after re-processing; restore and unmerge of an entry that needs neither change nothing")
    func restoreSticks() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let original = try await JournalRouteTests.postMorning(client, fixture)
            let ids = original.compactMap { $0["id"] as? Int }
            try #require(ids.count == 3)
            try await client.execute(uri: "/api/v1/visits/\(ids[1])", method: .delete, headers: Self.auth) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/v1/journal/process", method: .post, headers: Self.auth) { #expect($0.status == .ok) }
            #expect(try await JournalRouteTests.entries(client, Self.auth).compactMap { $0["id"] as? Int } == [ids[0], ids[2]])
            #expect(try await Self.patch(client, ids[1], #"{"deleted":false}"#).0 == .ok)
            try await client.execute(uri: "/api/v1/journal/process", method: .post, headers: Self.auth) { #expect($0.status == .ok) }
            #expect(Self.spans(try await JournalRouteTests.entries(client, Self.auth)) == Self.spans(original))
            #expect(try await Self.patch(client, ids[1], #"{"deleted":false}"#).0 == .ok)
            #expect(try await Self.patch(client, ids[2], #"{"merged":false}"#).0 == .ok)
            #expect(Self.spans(try await JournalRouteTests.entries(client, Self.auth)) == Self.spans(original))
            // `deleted: true` is DELETE's twin.
            #expect(try await Self.patch(client, ids[2], #"{"deleted":true}"#).1?["hidden"] as? Bool == true)
            #expect(try await JournalRouteTests.entries(client, Self.auth).compactMap { $0["id"] as? Int } == [ids[0], ids[1]])
        }
    }

    @Test("refused: an empty body, merged true, unmerging a deleted entry (restore it first), another person's entry")
    func refusals() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let ids = try await JournalRouteTests.postMorning(client, fixture).compactMap { $0["id"] as? Int }
            try #require(ids.count == 3)
            #expect(try await Self.patch(client, ids[0], "{}").0 == .badRequest)
            #expect(try await Self.patch(client, ids[0], #"{"merged":true}"#).0 == .badRequest)
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: Self.auth,
                                     body: ByteBuffer(#"{"ids":[\#(ids[0]),\#(ids[1])]}"#)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/visits/\(ids[0])", method: .delete, headers: Self.auth) { #expect($0.status == .noContent) }
            #expect(try await Self.patch(client, ids[0], #"{"merged":false}"#).0 == .badRequest)
            #expect(try await JournalRouteTests.entries(client, Self.auth).compactMap { $0["id"] as? Int } == [ids[2]],
                    "a refused unmerge leaves the deleted entry and what it joined deleted")
            // Both in one request: restored first, then unmerged.
            #expect(try await Self.patch(client, ids[0], #"{"deleted":false,"merged":false}"#).0 == .ok)
            #expect(try await JournalRouteTests.entries(client, Self.auth).compactMap { $0["id"] as? Int } == ids)
            try await client.execute(uri: "/api/v1/visits/\(ids[1])", method: .patch, headers: Auth.basic("bob", ServerFixture.bobPassword),
                                     body: ByteBuffer(#"{"deleted":false}"#)) { #expect($0.status == .notFound) }
        }
    }
}
