import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer
import TravelogStore

@Suite("The list of imports")
struct ImportListRouteTests {
    @Test("GET /api/v1/imports lists the user's imported files, newest first, and no one else's")
    func listed() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/imports?filename=walk.csv&device=imports", method: .post, headers: ada,
                                     body: ByteBuffer(UploadRouteTests.csv)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/imports", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                let imports = try #require(response.body.json as? [[String: Any]])
                #expect(imports.count == 1)
                #expect(imports.first?["fileName"] as? String == "walk.csv")
                #expect(imports.first?["inserted"] as? Int == 3)
                #expect(imports.first?["format"] as? String == "csv")
            }
            try await client.execute(uri: "/api/v1/imports", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect(($0.body.json as? [Any])?.isEmpty == true)
            }
            try await client.execute(uri: "/api/v1/imports?limit=0", method: .get, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/imports", method: .get) { #expect($0.status == .unauthorized) }
        }
    }
}
