import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogServer
import TravelogStore

/// Issue 25's eleventh finding: titles and place names took ESC, BEL, newlines and NUL, which the
/// CLI then printed raw (a title could clear the screen or forge lines) and a NUL cut.
@Suite("Names are text")
struct NamesAreTextTests {
    static let hostile = ["\u{1B}[2J\u{1B}[Hcleared", "bell\u{07}", "two\nlines", "cut\u{00}here", "tab\there", "del\u{7F}",
                          "csi\u{9B}31m", "line\u{2028}separator", "right-to-left \u{202E}gnp.exe"]

    @Test("a title or a place name with a control, line-separator or override character is a 400 naming it; nothing is stored")
    func refusedOverHTTP() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let entries = try await JournalRouteTests.postMorning(client, fixture)
            let id = try #require(entries.first?["id"] as? Int)
            let placeID = try #require(entries.first?["placeID"] as? Int)
            for name in Self.hostile {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: ["title": name]), as: UTF8.self)
                try await client.execute(uri: "/api/v1/visits/\(id)", method: .patch, headers: auth, body: ByteBuffer(body)) {
                    #expect($0.status == .badRequest, "title \(name.debugDescription): \($0.status.code)")
                    #expect($0.body.text.contains("U+"), "the refusal names the character")
                }
                let placeBody = String(decoding: try JSONSerialization.data(withJSONObject: ["name": name]), as: UTF8.self)
                try await client.execute(uri: "/api/v1/places/\(placeID)", method: .patch, headers: auth, body: ByteBuffer(placeBody)) {
                    #expect($0.status == .badRequest, "place \(name.debugDescription): \($0.status.code)")
                }
            }
            let long = String(repeating: "x", count: 201)
            try await client.execute(uri: "/api/v1/visits/\(id)", method: .patch, headers: auth, body: ByteBuffer(#"{"title":"\#(long)"}"#)) {
                #expect($0.status == .badRequest)
            }
            // Letters of every script, emoji and combining marks are names.
            try await client.execute(uri: "/api/v1/visits/\(id)", method: .patch, headers: auth,
                                     body: ByteBuffer(#"{"title":"Café 東京 👩‍👩‍👧 שלום"}"#)) { #expect($0.status == .ok) }
            let after = try await JournalRouteTests.entries(client, auth)
            #expect(after.first?["place"] as? String == "Café 東京 👩‍👩‍👧 שלום")
        }
    }

    @Test("names a file or a phone sends are stripped, never refused; a region's and a device's name are refused")
    func strippedFromFiles() throws {
        let coordinate = try Coordinate(latitude: 52.5, longitude: 13.4)
        let visit = JournalVisit(deviceID: DeviceID(rawValue: 1), source: .file, arrival: Date(), departure: nil, center: coordinate,
                                 radiusMeters: 50, locationCount: 3, name: "Caf\u{1B}[31mé\nBar\u{00}", address: "Main St\u{07}")
        #expect(visit.name == "Caf[31mé Bar")
        #expect(visit.address == "Main St")
        for name in Self.hostile {
            #expect(DisplayName.firstRefused(in: name) != nil, "\(name.debugDescription)")
            #expect(DisplayName.firstRefused(in: DisplayName.stripped(name)) == nil)
            #expect(throws: (any Error).self) { try AccountName.validated(name) }
            #expect(throws: (any Error).self) {
                try RegionDefinition(name: name, shape: .circle(Circle(center: coordinate, radiusMeters: 100)))
            }
        }
        #expect(DisplayName.refusal(of: "ab\u{1B}") == "U+001B at character 3")
    }
}
