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

    /// Forty minutes at one spot, a fix a minute, then away: a stay the journal detects.
    static let stayCSV = "time,latitude,longitude\n"
        + (0...40).map { String(format: "2024-06-01T09:%02d:00Z,48.137,11.575\n", $0) }.joined()
        + "2024-06-01T09:45:00Z,48.147,11.585\n2024-06-01T09:50:00Z,48.157,11.595\n"

    @Test("DELETE /api/v1/imports/{id} discards the import with its locations and the visits detected from them, for its owner only")
    func discarded() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/imports?filename=walk.csv&device=imports", method: .post, headers: ada,
                                     body: ByteBuffer(UploadRouteTests.csv)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/imports?filename=stay.csv&device=imports", method: .post, headers: ada,
                                     body: ByteBuffer(Self.stayCSV)) { #expect($0.status == .ok) }
            #expect(try await fixture.storedCount(fixture.ada) == 46)
            #expect(try await JournalRouteTests.entries(client, ada).count == 1, "the stay is a visit")
            let ids = try await client.execute(uri: "/api/v1/imports", method: .get, headers: ada) { response in
                try #require(response.body.json as? [[String: Any]]).compactMap { $0["id"] as? Int }
            }
            let stay = try #require(ids.first)
            try await client.execute(uri: "/api/v1/imports/\(stay)", method: .delete, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/imports/\(stay)", method: .delete, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/imports/x", method: .delete, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/imports/\(stay)", method: .delete, headers: ada) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/v1/imports/\(stay)", method: .delete, headers: ada) { #expect($0.status == .notFound) }
            #expect(try await fixture.storedCount(fixture.ada) == 3)
            await fixture.app.journal.drain()
            #expect(try await JournalRouteTests.entries(client, ada).isEmpty, "the visit went with its fixes")
            try await client.execute(uri: "/api/v1/imports", method: .get, headers: ada) { response in
                let names = try #require(response.body.json as? [[String: Any]]).map { $0["fileName"] as? String }
                #expect(names == ["walk.csv"])
            }
        }
    }
}
