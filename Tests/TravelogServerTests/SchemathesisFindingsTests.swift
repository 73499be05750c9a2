import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import TravelogServer

/// What scripts/schemathesis-test.sh found the server doing that its document did not say.
@Suite("Schemathesis findings")
struct SchemathesisFindingsTests {
    static let batch = #"[{"latitude": 52.52, "longitude": 13.405, "timestamp": "2024-03-01T09:00:00Z"}]"#

    @Test("POST /locations refuses a source other than manual; manual is taken")
    func unknownSource() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations?source=bogus", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(string: Self.batch)) {
                #expect($0.status == .badRequest)
                #expect(($0.body.json as? [String: String])?["error"]?.contains("source") == true)
            }
            try await client.execute(uri: "/api/v1/locations?source=manual", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(string: Self.batch)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test("a method /visits/merge does not take is a 405 whose Allow lists POST alone")
    func allowOfLiteralPath() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/visits/merge", method: .options,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .methodNotAllowed)
                #expect($0.headers[.allow] == "POST")
            }
        }
    }
}
