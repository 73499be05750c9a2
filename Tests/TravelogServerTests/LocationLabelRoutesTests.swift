import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore

import Testing
import TravelogCore
import TravelogImport
import TravelogStore
@testable import TravelogServer

/// OwnTracks' `poi` ("Publish with POI") and `tag` on HTTP and MQTT alike are kept with their fix
/// before the phone is answered, and `GET /api/v1/labels` lists them by range and device.
@Suite("Labels of OwnTracks fixes, and GET /api/v1/labels")
struct LocationLabelRoutesTests {
    static func labels(_ client: some TestClientProtocol, _ query: String, _ headers: HTTPFields) async throws -> [[String: Any]] {
        try await client.execute(uri: "/api/v1/labels?\(query)", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [[String: Any]])
        }
    }

    @Test("poi and tag on HTTP and MQTT are labels of their fixes; a retry keeps one; a wrong kind is no label, never a lost fix; the API lists them by range and device")
    func ownTracks() async throws {
        let fixture = try await ServerFixture.make()
        let body = "[" + [
            #"{"_type":"location","tid":"ph","tst":1700000000,"lat":52.5,"lon":13.4,"acc":8,"poi":"Kaisla","tag":"beer"}"#,
            #"{"_type":"location","tid":"ph","tst":1700000060,"lat":52.51,"lon":13.4,"poi":17,"tag":null}"#,
            #"{"_type":"location","tid":"ph","tst":1700000120,"lat":52.52,"lon":13.4,"poi":"   "}"#,
        ].joined(separator: ",") + "]"
        try await fixture.test { client in
            for _ in 0..<2 { // the phone sends it again: it did not hear the answer
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                         body: ByteBuffer(string: body)) { #expect($0.status == .ok) }
            }
        }
        let ingest = OwnTracksMessageTypesTests.mqttIngest(fixture)
        #expect(await ingest.receive(topic: "owntracks/ada/watch",
                                     payload: Array(#"{"_type":"location","tst":1700000090,"lat":52.6,"lon":13.5,"poi":"Watch point"}"#.utf8)) == .stored)
        let store = fixture.app.store
        #expect(try await store.locations(LocationQuery(userID: fixture.ada.id)).count == 4, "every fix is stored")
        #expect(try await store.rejectedItems(userID: fixture.ada.id, limit: 10).isEmpty)
        try await fixture.test { client in
            let headers = Auth.basic("ada", ServerFixture.adaPassword)
            let all = try await Self.labels(client, "", headers)
            #expect(all.map { "\($0["device"]!) \($0["kind"]!) \($0["text"]!)" } == ["phone poi Kaisla", "phone tag beer", "watch poi Watch point"])
            #expect(all.first?["time"] as? String == "2023-11-14T22:13:20Z")
            #expect(all.first?["latitude"] as? Double == 52.5)
            #expect(try await Self.labels(client, "device=watch", headers).map { $0["text"] as? String } == ["Watch point"])
            #expect(try await Self.labels(client, "from=2023-11-14T22:14:00Z", headers).map { $0["text"] as? String } == ["Watch point"])
            #expect(try await Self.labels(client, "limit=1", headers).count == 1)
            try await client.execute(uri: "/api/v1/labels?device=nope", method: .get, headers: headers) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/labels?limit=0", method: .get, headers: headers) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/labels", method: .get, headers: [:]) { #expect($0.status == .unauthorized) }
            // Bob sees none of ada's.
            #expect(try await Self.labels(client, "", Auth.basic("bob", ServerFixture.bobPassword)).isEmpty)
        }
    }
}
