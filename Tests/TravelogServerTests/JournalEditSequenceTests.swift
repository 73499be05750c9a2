import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogJournal
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

/// Entries stored before a gazetteer was there get their places' names later (issue 26).
@Suite("Entries described later")
struct DescribedLaterTests {
    @Test("visits stored without a gazetteer are described when one is there, on the server's start; a title stays")
    func describedOnStart() async throws {
        let bare = try await ServerFixture.make(withGazetteer: false)
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        let before = try await bare.test { client in
            let entries = try await JournalRouteTests.postMorning(client, bare)
            try await client.execute(uri: "/api/v1/visits/\(entries[1]["id"] as? Int ?? 0)", method: .patch, headers: auth,
                                     body: ByteBuffer(#"{"title":"Office"}"#)) { #expect($0.status == .ok) }
            return try await JournalRouteTests.entries(client, auth)
        }
        #expect(before.count == 3)
        #expect(before[0]["place"] as? String != "Berlin, DE", "no gazetteer: the entry has only its coordinates")
        try await bare.test { client in
            try await client.execute(uri: "/api/v1/whereabouts", method: .get, headers: auth) { response in
                #expect(((response.body.json as? [String: Any])?["countries"] as? [Any])?.isEmpty == true)
            }
        }
        // The same database, served with a gazetteer: the journal service describes what it finds at its start.
        let described = TravelogServerApp(store: bare.app.store, configuration: bare.app.configuration, gazetteer: try ServerFixture.gazetteer())
        try await described.makeApplication().test(.live) { client in
            var entries: [[String: Any]] = []
            for _ in 0..<100 {
                entries = try await JournalRouteTests.entries(client, auth)
                if entries.first?["place"] as? String == "Berlin, DE" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(entries.map { $0["place"] as? String } == ["Berlin, DE", "Office", "Berlin, DE"])
            try await client.execute(uri: "/api/v1/whereabouts", method: .get, headers: auth) { response in
                let countries = (response.body.json as? [String: Any])?["countries"] as? [[String: Any]]
                #expect(countries?.first?["code"] as? String == "DE")
            }
        }
        #expect(try await described.journal.processor.describeStale() == 0, "nothing is described twice")
    }
}
