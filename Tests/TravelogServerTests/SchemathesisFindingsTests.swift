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

/// What Tests/Schemathesis/known-failures.txt listed until these were fixed.
@Suite("Schemathesis known failures")
struct SchemathesisKnownFailuresTests {
    static let collectionStart = #"{"type":"FeatureCollection","features":["#
    static let goodFeature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.405,52.52]},"properties":{"timestamp":"2024-03-01T09:00:00Z"}}"#

    @Test("a basemap tile's scale other than 1 or 2 is a documented 400")
    func basemapScale() async throws {
        #expect(OpenAPIDocumentTests.statuses("get", "/api/v1/basemap/{z}/{x}/{y}.png").contains("400"))
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/basemap/0/0/0.png?scale=null", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect((response.body.json as? [String: String])?["error"]?.contains("scale") == true)
            }
        }
    }

    @Test("a snapshot's empty region or size is the default, as the document allows")
    func snapshotEmptyRegion() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await TileRouteTests.post(TileRouteTests.walk(from: 0, count: 10), fixture, client)
            try await client.execute(uri: "/api/v1/snapshot?region=&size=", method: .get, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .ok)
                #expect($0.headers[.contentType] == "image/png")
            }
            try await client.execute(uri: "/api/v1/snapshot?region=x", method: .get, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .badRequest)
            }
        }
    }

    @Test("a region id that is no 64-bit integer is a documented 400; the document bounds region ids to 64 bits",
          arguments: ["abc", "18446744073709551615"])
    func regionIdentifier(id: String) async throws {
        for method in ["get", "delete"] { #expect(OpenAPIDocumentTests.statuses(method, "/api/v1/regions/{id}").contains("400")) }
        let parameters = OpenAPIDocumentTests.operation("get", "/api/v1/regions/{id}").filter { $0.contains("name: id") }
        #expect(parameters.count == 1 && parameters.allSatisfy { $0.contains("schemas/Identifier") })
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/regions/\(id)", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .badRequest)
            }
        }
    }

    @Test("POST /locations refuses, with a 400 naming the field and storing nothing, a GeoJSON feature the document does not allow",
          arguments: [
              (#"{"type":"Feature","geometry":{"type":"Point","coordinates":null},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "coordinates"),
              (#"{"type":{},"geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "type"),
              (#"{"geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "type"),
              (#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[13.4,52.5],[13.5,52.5]]},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "geometry"),
              (#"{"type":"Feature","geometry":{"type":"Point","coordinates":["13.4","52.5"]},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "coordinates"),
              (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5,30,1]},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "coordinates"),
              (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[181,0,0]},"properties":{"timestamp":"2024-03-01T09:01:00Z"}}"#, "longitude"),
              (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{}}"#, "time"),
          ])
    func strictGeoJSON(feature: String, field: String) async throws {
        let fixture = try await ServerFixture.make()
        let body = Self.collectionStart + Self.goodFeature + "," + feature + "]}"
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.basic("ada", ServerFixture.adaPassword),
                                     body: ByteBuffer(string: body)) {
                #expect($0.status == .badRequest)
                let message = ($0.body.json as? [String: String])?["error"] ?? ""
                #expect(message.contains(field), "\(message)")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
    }

    @Test("POST /locations skips a GeoJSON feature without geometry and stores the Point features")
    func featureWithoutGeometry() async throws {
        let fixture = try await ServerFixture.make()
        let body = Self.collectionStart + Self.goodFeature + #",{"type":"Feature","geometry":null},{"type":"Feature"}]}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.basic("ada", ServerFixture.adaPassword),
                                     body: ByteBuffer(string: body)) {
                #expect($0.status == .ok)
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }

    @Test("the document requires a Point feature's timestamp without if/then, which schemathesis does not apply")
    func timestampRequiredPlainly() {
        let text = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        #expect(!text.contains("if: {"), "schemathesis generates data ignoring if/then")
        #expect(text.contains("required: [type, geometry, properties]"))
    }
}
