import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer
import TravelogStore
import TravelogTestSupport

@Suite("Photos never reach a friend or a share link")
struct PhotoPrivacyRouteTests {
    typealias B = ExifJPEGBuilder

    /// A photo taken on ada's walk of 2 May 2024 (`UploadRouteTests.csv`), inside the zone below.
    static func photo() -> Data {
        var builder = ExifJPEGBuilder()
        builder.exif = [(B.dateTimeOriginal, .ascii("2024:05:02 10:01:00")), (B.offsetTimeOriginal, .ascii("+00:00"))]
        builder.gps = [(B.latitudeRef, .ascii("N")), (B.latitude, B.dms(48.21)), (B.longitudeRef, .ascii("E")),
                       (B.longitude, B.dms(11.61))]
        return builder.decodableJPEG()
    }

    @Test("a photo in ada's hide zone: her friend with her history and her day's share link see no photo on any route")
    func friendsAndSharesCarryNoPhotos() async throws {
        let fixture = try await PhotoRouteTests.fixture()
        let (ada, bob) = (ShareRouteTests.ada, ShareRouteTests.bob)
        try await fixture.test { client in
            try await ShareRouteTests.upload(client, ShareRouteTests.twoDays)
            let (id, digest) = try await client.execute(uri: "/api/v1/photos?filename=walk.jpg", method: .post, headers: ada,
                                                        body: ByteBuffer(bytes: Self.photo())) { response in
                #expect(response.status == .created)
                let photo = try #require(response.body.json as? [String: Any])
                return (try #require(photo["id"] as? Int), try #require(photo["sha256"] as? String))
            }
            let zone = #"{"name":"Home","rule":"hide","circle":{"latitude":48.21,"longitude":11.61,"radiusMeters":300}}"#
            #expect(try await FriendRouteTests.call(client, "/api/v1/zones", .post, ada, body: zone).status == .created)
            _ = try await FriendRouteTests.call(client, "/api/v1/friends", .post, bob, body: #"{"name":"ada"}"#)
            #expect(try await FriendRouteTests.call(client, "/api/v1/friends", .post, ada, body: #"{"name":"bob"}"#).status == .ok)
            #expect(try await FriendRouteTests.call(client, "/api/v1/friends/bob/history", .put, ada, body: #"{"shared":true}"#).status == .ok)
            let share = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02","title":"A walk"}"#)
            let token = try #require(share["token"] as? String)
            // Everything bob and a visitor of the link can read.
            let reads: [(String, HTTPFields)] = [
                ("/api/v1/friends", bob), ("/api/v1/friends/positions", bob),
                ("/api/v1/friends/ada/path?from=2024-05-02&to=2024-05-02&zoom=16", bob),
                ("/api/v1/s/\(token)", [:]), ("/api/v1/s/\(token)/path?zoom=14", [:]), ("/api/v1/s/\(token)/journal", [:]),
                ("/api/v1/s/\(token)/latest", [:]),
            ]
            var answered = 0
            for (uri, headers) in reads {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    if response.status == .ok { answered += 1 }
                    let text = response.body.text
                    #expect(!text.contains(digest) && !text.contains("/api/v1/photos") && !text.contains("\"photos\":[") && !text.contains("\"placement\""),
                            "\(uri): \(text.prefix(200))")
                }
            }
            #expect(answered >= 5, "the friend's and the link's routes answer")
            // Ada herself sees it (the owner's view is not filtered by her own zones).
            try await client.execute(uri: "/api/v1/photos?from=2024-05-02&to=2024-05-02", method: .get, headers: ada) {
                #expect($0.body.text.contains("\"placement\":\"own-gps\"") && $0.body.text.contains("\"id\":\(id)"))
            }
            try await client.execute(uri: "/api/v1/photos", method: .get, headers: bob) {
                #expect((($0.body.json as? [String: Any])?["photos"] as? [Any])?.isEmpty == true)
            }
            for uri in ["/api/v1/photos/\(id)", "/api/v1/photos/\(id)/thumbnail"] {
                try await client.execute(uri: uri, method: .get, headers: bob) { #expect($0.status == .notFound, "\(uri)") }
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .unauthorized, "\(uri) without a login") }
            }
        }
    }
}
