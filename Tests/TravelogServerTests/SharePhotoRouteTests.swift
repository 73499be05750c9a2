import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer
import TravelogStore
import TravelogTestSupport

@Suite("Share links with photos")
struct SharePhotoRouteTests {
    typealias B = ExifJPEGBuilder

    /// A JPEG taken at `time` (UTC), at `position` when given.
    static func photo(_ time: String?, _ position: (Double, Double)?) -> Data {
        var builder = ExifJPEGBuilder()
        if let time { builder.exif = [(B.dateTimeOriginal, .ascii(time)), (B.offsetTimeOriginal, .ascii("+00:00"))] }
        if let (latitude, longitude) = position {
            builder.gps = [(B.latitudeRef, .ascii("N")), (B.latitude, B.dms(latitude)), (B.longitudeRef, .ascii("E")),
                           (B.longitude, B.dms(longitude))]
        }
        return builder.decodableJPEG()
    }

    static func add(_ client: some TestClientProtocol, _ name: String, _ data: Data, _ headers: HTTPFields) async throws -> Int {
        try await client.execute(uri: "/api/v1/photos?filename=\(name)", method: .post, headers: headers, body: ByteBuffer(bytes: data)) {
            #expect($0.status == .created, "\(name): \($0.body.text)")
            return try #require(($0.body.json as? [String: Any])?["id"] as? Int)
        }
    }

    static func listed(_ client: some TestClientProtocol, _ token: String, _ headers: HTTPFields = [:]) async throws -> [Int] {
        try await client.execute(uri: "/api/v1/s/\(token)/photos", method: .get, headers: headers) { response in
            #expect(response.status == .ok, "\(response.body.text)")
            #expect(response.headers[.cacheControl] == "no-store")
            let answer = try #require(response.body.json as? [String: Any])
            #expect(answer["complete"] as? Bool == true)
            return (answer["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        }
    }

    static func thumbnail(_ client: some TestClientProtocol, _ token: String, _ id: Int, query: String = "",
                          _ headers: HTTPFields = [:]) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/api/v1/s/\(token)/photos/\(id)/thumbnail\(query)", method: .get, headers: headers) { response in
            if response.status == .ok {
                #expect(response.headers[.contentType] == "image/jpeg" && response.headers[.cacheControl] == "no-store")
                let bytes = Array(response.body.readableBytesView)
                #expect(bytes.prefix(2) == [0xFF, 0xD8], "a JPEG")
                #expect(String(decoding: bytes, as: UTF8.self).range(of: "Exif") == nil, "no EXIF: nothing of the original's metadata")
            }
            return response.status
        }
    }

    @Test("a link made with photos shows the range's placed photos outside hidden zones, as zones are now; every other photo is a 404")
    func photosOfTheRange() async throws {
        let fixture = try await PhotoRouteTests.fixture()
        let (ada, bob) = (ShareRouteTests.ada, ShareRouteTests.bob)
        try await fixture.test { client in
            try await ShareRouteTests.upload(client, ShareRouteTests.twoDays)
            let inZone = try await Self.add(client, "home.jpg", Self.photo("2024:05:02 10:01:00", (48.21, 11.61)), ada)
            let shown = try await Self.add(client, "park.jpg", Self.photo("2024:05:02 10:02:00", (48.25, 11.65)), ada)
            let later = try await Self.add(client, "next.jpg", Self.photo("2024:05:03 10:01:00", (48.3, 11.7)), ada)
            let unplaced = try await Self.add(client, "none.jpg", Self.photo(nil, nil), ada)
            let bobs = try await Self.add(client, "bob.jpg", Self.photo("2024:05:02 10:03:00", (48.25, 11.65)), bob)
            let zone = #"{"name":"Home","rule":"hide","circle":{"latitude":48.21,"longitude":11.61,"radiusMeters":300}}"#
            #expect(try await FriendRouteTests.call(client, "/api/v1/zones", .post, ada, body: zone).status == .created)
            let withPhotos = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02","photos":true}"#)
            let without = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02"}"#)
            #expect(withPhotos["photos"] as? Bool == true && without["photos"] as? Bool == false)
            let token = try #require(withPhotos["token"] as? String), plain = try #require(without["token"] as? String)

            try await client.execute(uri: "/api/v1/s/\(token)", method: .get) {
                #expect(($0.body.json as? [String: Any])?["photos"] as? Bool == true)
            }
            #expect(try await Self.listed(client, token) == [shown])
            try await client.execute(uri: "/api/v1/s/\(token)/photos", method: .get) { response in
                let photo = try #require(((response.body.json as? [String: Any])?["photos"] as? [[String: Any]])?.first)
                #expect(Set(photo.keys) == ["id", "time", "latitude", "longitude", "width", "height"], "no file, camera or device")
                #expect(photo["time"] as? String == "2024-05-02T10:02:00Z")
                #expect(abs((photo["latitude"] as? Double ?? 0) - 48.25) < 1e-6)
            }
            #expect(try await Self.thumbnail(client, token, shown) == .ok)
            #expect(try await Self.thumbnail(client, token, shown, query: "?size=large") == .ok)
            #expect(try await Self.thumbnail(client, token, shown, query: "?size=huge") == .badRequest)
            for other in [inZone, later, unplaced, bobs, 987_654] {
                #expect(try await Self.thumbnail(client, token, other) == .notFound, "photo \(other)")
            }
            try await client.execute(uri: "/api/v1/s/\(token)/photos/abc/thumbnail", method: .get) { #expect($0.status == .badRequest) }
            // The owner's own routes take no share token.
            try await client.execute(uri: "/api/v1/photos/\(shown)/thumbnail", method: .get, headers: Auth.bearer(token)) {
                #expect($0.status == .unauthorized)
            }
            // A link without photos shows none, not even by id.
            try await client.execute(uri: "/api/v1/s/\(plain)/photos", method: .get) { #expect($0.status == .notFound) }
            #expect(try await Self.thumbnail(client, plain, shown) == .notFound)
            // A zone drawn after the link was made hides the photo from the next request on.
            let park = #"{"name":"Park","rule":"hide","circle":{"latitude":48.25,"longitude":11.65,"radiusMeters":100}}"#
            #expect(try await FriendRouteTests.call(client, "/api/v1/zones", .post, ada, body: park).status == .created)
            #expect(try await Self.listed(client, token).isEmpty)
            #expect(try await Self.thumbnail(client, token, shown) == .notFound)
            // Revoked: 410 on both routes.
            let id = try #require(withPhotos["id"] as? Int)
            #expect(try await FriendRouteTests.call(client, "/api/v1/shares/\(id)", .delete, ada).status == .noContent)
            try await client.execute(uri: "/api/v1/s/\(token)/photos", method: .get) { #expect($0.status == .gone) }
            #expect(try await Self.thumbnail(client, token, shown) == .gone)
        }
    }

    @Test("a password link's photos and thumbnails ask for its key")
    func passwordLink() async throws {
        let fixture = try await PhotoRouteTests.fixture()
        try await fixture.test { client in
            let id = try await Self.add(client, "park.jpg", Self.photo("2024:05:02 10:02:00", (48.25, 11.65)), ShareRouteTests.ada)
            let made = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02","photos":true,"password":"open sesame"}"#)
            let token = try #require(made["token"] as? String)
            try await client.execute(uri: "/api/v1/s/\(token)/photos", method: .get) { #expect($0.status == .unauthorized) }
            #expect(try await Self.thumbnail(client, token, id) == .unauthorized)
            let key = try await client.execute(uri: "/api/v1/s/\(token)/unlock", method: .post, headers: ShareRouteTests.json([:]),
                                               body: ByteBuffer(#"{"password":"open sesame"}"#)) {
                try #require(($0.body.json as? [String: String])?["key"])
            }
            let unlocked = HTTPFields().adding("X-Share-Key", key)
            #expect(try await Self.listed(client, token, unlocked) == [id])
            #expect(try await Self.thumbnail(client, token, id, unlocked) == .ok)
        }
    }
}
