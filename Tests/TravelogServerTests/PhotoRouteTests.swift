import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogServer
import TravelogPhotos
import TravelogStore
import TravelogTestSupport

@Suite("The photo routes")
struct PhotoRouteTests {
    typealias B = ExifJPEGBuilder

    /// A decodable photo at 2024-06-01T10:00:00+02:00 in Helsinki, turned (orientation 6).
    static func photo() -> Data {
        var builder = ExifJPEGBuilder()
        builder.ifd0 = [(B.orientation, .short(6))]
        builder.exif = [(B.dateTimeOriginal, .ascii("2024:06:01 10:00:00")), (B.offsetTimeOriginal, .ascii("+02:00"))]
        builder.gps = [(B.latitudeRef, .ascii("N")), (B.latitude, B.dms(60.1699)), (B.longitudeRef, .ascii("E")),
                       (B.longitude, B.dms(24.9384))]
        return builder.decodableJPEG()
    }

    static func fixture() async throws -> ServerFixture {
        var configuration = ServerConfiguration(port: 0, bcryptCost: 4)
        configuration.photoDirectory = TestDirectory.makeFolder("server-photos")
        return try await ServerFixture.make(configuration: configuration)
    }

    @Test("an upload is listed, read, thumbnailed and deleted by its owner; another user's id is a 404 everywhere")
    func uploadListReadDelete() async throws {
        let fixture = try await Self.fixture()
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        let bob = Auth.basic("bob", ServerFixture.bobPassword)
        try await fixture.test { client in
            let id = try await client.execute(uri: "/api/v1/photos?filename=helsinki.jpg", method: .post, headers: ada,
                                              body: ByteBuffer(bytes: Self.photo())) { response in
                #expect(response.status == .created)
                let photo = try #require(response.body.json as? [String: Any])
                #expect(photo["placement"] as? String == "own-gps")
                #expect(photo["time"] as? String == "2024-06-01T08:00:00Z")
                #expect(photo["width"] as? Int == 48 && photo["height"] as? Int == 64, "as shown: orientation 6 turns 64×48")
                #expect(photo["uploaded"] as? Bool == true)
                return try #require(photo["id"] as? Int)
            }
            // The same file again: 200, nothing new.
            try await client.execute(uri: "/api/v1/photos?filename=again.jpg", method: .post, headers: ada,
                                     body: ByteBuffer(bytes: Self.photo())) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["id"] as? Int == id)
            }
            try await client.execute(uri: "/api/v1/photos?from=2024-06-01&to=2024-06-01&bbox=24,60,25,61", method: .get, headers: ada) {
                let photos = try #require(($0.body.json as? [String: Any])?["photos"] as? [[String: Any]])
                #expect(photos.map { $0["id"] as? Int } == [id])
                #expect(abs((photos.first?["latitude"] as? Double ?? 0) - 60.1699) < 1e-6)
            }
            try await client.execute(uri: "/api/v1/photos?bbox=0,0,1,1", method: .get, headers: ada) {
                #expect((($0.body.json as? [String: Any])?["photos"] as? [Any])?.isEmpty == true)
            }
            try await client.execute(uri: "/api/v1/photos/\(id)/thumbnail?size=large", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Array(response.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
            }
            try await client.execute(uri: "/api/v1/photos/\(id)/thumbnail?size=huge", method: .get, headers: ada) {
                #expect($0.status == .badRequest)
            }
            // The original, as uploaded, streamed with its type and name.
            try await client.execute(uri: "/api/v1/photos/\(id)/original", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.contentDisposition]?.hasPrefix("inline; filename=\"") == true)
                #expect(Data(response.body.readableBytesView) == Self.photo())
            }
            // Bob: an empty list, and a 404 for ada's photo on every route.
            try await client.execute(uri: "/api/v1/photos", method: .get, headers: bob) {
                #expect((($0.body.json as? [String: Any])?["photos"] as? [Any])?.isEmpty == true)
            }
            for (uri, method) in [("/api/v1/photos/\(id)", HTTPRequest.Method.get), ("/api/v1/photos/\(id)/thumbnail", .get),
                                  ("/api/v1/photos/\(id)/original", .get),
                                  ("/api/v1/photos/\(id)", .delete)] {
                try await client.execute(uri: uri, method: method, headers: bob) { #expect($0.status == .notFound, "\(method) \(uri)") }
            }
            try await client.execute(uri: "/api/v1/photos/\(id)", method: .get, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .ok, "a read token reads")
            }
            try await client.execute(uri: "/api/v1/photos/\(id)", method: .delete, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden, "a device token does not delete")
            }
            try await client.execute(uri: "/api/v1/photos/\(id)", method: .get, headers: ada) { response in
                let photo = try #require(response.body.json as? [String: Any])
                #expect(photo["file_name"] as? String == (photo["sha256"] as? String ?? "?") + ".jpg")
            }
            try await client.execute(uri: "/api/v1/photos/\(id)", method: .delete, headers: ada) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/api/v1/photos/\(id)", method: .get, headers: ada) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/photos", method: .get) { #expect($0.status == .unauthorized) }
        }
    }

    @Test("a large JPEG with a camera preview is added without decoding; its large thumbnail, made on first view, falls back to the small one when the original is gone")
    func previewThumbnails() async throws {
        var builder = ExifJPEGBuilder()
        builder.exif = [(B.dateTimeOriginal, .ascii("2024:06:01 10:00:00")), (B.offsetTimeOriginal, .ascii("+02:00"))]
        builder.thumbnail = ExifJPEGBuilder.previewJPEG
        var data = builder.decodableJPEG()
        // The frame header claims 2000×1500 (3 MP, 4:3 as the preview): a photo large enough for the preview to stand in.
        let frame = try #require(data.indices.dropLast().last { data[$0] == 0xFF && data[$0 + 1] == 0xC0 }, "the main image's frame header, after the preview's")
        data.replaceSubrange((frame + 5)..<(frame + 9), with: [0x05, 0xDC, 0x07, 0xD0])
        let photo = data
        let fixture = try await Self.fixture()
        let folder = try #require(fixture.app.configuration.photoDirectory)
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let id = try await client.execute(uri: "/api/v1/photos?filename=big.jpg", method: .post, headers: ada, body: ByteBuffer(bytes: photo)) { response in
                #expect(response.status == .created)
                let photo = try #require(response.body.json as? [String: Any])
                #expect(photo["width"] as? Int == 2000 && photo["height"] as? Int == 1500)
                return try #require(photo["id"] as? Int)
            }
            let small = try await client.execute(uri: "/api/v1/photos/\(id)/thumbnail?size=small", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            let thumbnails = PhotoFolder(root: folder).thumbnails
            let digest = try #require(try await (fixture.app.store as? any PhotoStore)?.photo(id: PhotoID(rawValue: Int64(id)), userID: fixture.ada.id)?.record)
            #expect(!FileManager.default.fileExists(atPath: thumbnails.url(digest: digest.digest, size: .large).path), "not made on adding")
            try FileManager.default.removeItem(atPath: digest.path)
            try await client.execute(uri: "/api/v1/photos/\(id)/thumbnail?size=large", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                #expect(Data(response.body.readableBytesView) == small, "the small one stands in")
            }
            try await client.execute(uri: "/api/v1/photos/\(id)/original", method: .get, headers: ada) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("no longer where it was added from"))
            }
        }
    }

    @Test("the clusters route groups the range's photos for a zoom, lists those in the view, and reads only the user's")
    func clusters() async throws {
        let fixture = try await Self.fixture()
        let store = try #require(fixture.app.store as? any PhotoStore)
        // 40 photos on 2024-06-01 around Helsinki, 10 of them at one spot, and 5 without a position.
        for index in 0..<45 {
            let coordinate = index < 10 ? Coordinate(validLatitude: 60.17, longitude: 24.94)
                : index < 40 ? Coordinate(validLatitude: 60.0 + Double(index) * 0.01, longitude: 24.5 + Double(index) * 0.02) : nil
            _ = try await store.addPhoto(PhotoRecord(digest: String(format: "%064x", index), path: "/photos/\(index).jpg", mimeType: "image/jpeg",
                                                     byteCount: 1, takenAt: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60),
                                                     coordinate: coordinate, positionSource: coordinate == nil ? .unplaced : .ownGPS,
                                                     addedAt: Date()), userID: fixture.ada.id)
        }
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/photos/clusters?from=2024-06-01&to=2024-06-01&timezone=UTC&zoom=3", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                let answer = try #require(response.body.json as? [String: Any])
                #expect(answer["total"] as? Int == 45 && answer["placed"] as? Int == 40 && answer["zoom"] as? Int == 3)
                let clusters = try #require(answer["clusters"] as? [[String: Any]])
                #expect(clusters.map { $0["count"] as? Int } == [40], "one cell holds them all at zoom 3")
                let newest = try #require(clusters.first?["newest"] as? [String: Any])
                #expect(newest["time"] as? String == "2024-06-01T00:39:00Z", "the newest placed photo")
                let bounds = try #require(answer["bounds"] as? [String: Double])
                #expect(bounds["south"] == 60.1 && bounds["north"] == 60.39 && bounds["west"] == 24.7 && bounds["east"] == 25.28)
            }
            // A street-level view of the spot: its 10 photos as one cluster; the range's counts stay whole.
            try await client.execute(uri: "/api/v1/photos/clusters?from=2024-06-01&to=2024-06-01&timezone=UTC&zoom=16&bbox=24.93,60.16,24.95,60.18",
                                     method: .get, headers: ada) { response in
                let answer = try #require(response.body.json as? [String: Any])
                #expect((answer["clusters"] as? [[String: Any]])?.map { $0["count"] as? Int } == [10])
                #expect(answer["placed"] as? Int == 40)
            }
            // The snapshot of the view draws them as pins with photos=true (the page's Image of this view), not by default.
            let view = "/api/v1/snapshot?from=2024-06-01&to=2024-06-01&timezone=UTC&view=60.17,24.94,13&size=200x200"
            let plain = try await client.execute(uri: view, method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            let withPhotos = try await client.execute(uri: view + "&photos=true", method: .get, headers: ada) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                return Data(response.body.readableBytesView)
            }
            #expect(plain != withPhotos, "the photos' pin is drawn")
            try await client.execute(uri: view + "&photos=yes", method: .get, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/photos/clusters?zoom=23", method: .get, headers: ada) { #expect($0.status == .badRequest) }
            for zoom in ["-1", "abc", "1e3", ""] {
                try await client.execute(uri: "/api/v1/photos/clusters?zoom=\(zoom)", method: .get, headers: ada) { #expect($0.status == .badRequest, "zoom=\(zoom)") }
            }
            // A view across the 180th meridian holds none of these photos: no clusters, the range's counts whole.
            try await client.execute(uri: "/api/v1/photos/clusters?zoom=3&bbox=170,-10,-170,10", method: .get, headers: ada) { response in
                let answer = try #require(response.body.json as? [String: Any])
                #expect(response.status == .ok && (answer["clusters"] as? [Any])?.isEmpty == true && answer["placed"] as? Int == 40)
            }
            try await client.execute(uri: "/api/v1/photos/clusters?zoom=3&bbox=NaN,0,1,1", method: .get, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/photos/clusters?zoom=5&bbox=1,2,3", method: .get, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/photos/clusters", method: .get) { #expect($0.status == .unauthorized) }
            // Bob has no photos: nothing, and bounds written as null.
            try await client.execute(uri: "/api/v1/photos/clusters?zoom=5", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("\"bounds\":null") && text.contains("\"clusters\":[]") && text.contains("\"total\":0"), "\(text)")
            }
        }
    }

    @Test("the times route gives every timed photo of the range, by time then id, as two columns, and only the user's")
    func times() async throws {
        let fixture = try await Self.fixture()
        let store = try #require(fixture.app.store as? any PhotoStore)
        // Added out of order: two at the same instant, one without a time, one the day after.
        let instants: [Double?] = [1_717_200_300, 1_717_200_000, nil, 1_717_200_300, 1_717_300_000]
        var ids: [Int64] = []
        for (index, instant) in instants.enumerated() {
            let (photo, _) = try await store.addPhoto(PhotoRecord(digest: String(format: "%064x", index), path: "/p/\(index).jpg", mimeType: "image/jpeg",
                                                                 byteCount: 1, takenAt: instant.map { Date(timeIntervalSince1970: $0) },
                                                                 positionSource: .unplaced, addedAt: Date()), userID: fixture.ada.id)
            ids.append(photo.id.rawValue)
        }
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        let expected = [ids[1], min(ids[0], ids[3]), max(ids[0], ids[3])]
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/photos/times?from=2024-06-01&to=2024-06-01&timezone=UTC", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                let answer = try #require(response.body.json as? [String: [Int64]])
                #expect(answer["ids"] == expected)
                #expect(answer["times"] == [1_717_200_000_000, 1_717_200_300_000, 1_717_200_300_000])
            }
            try await client.execute(uri: "/api/v1/photos/times", method: .get, headers: ada) {
                #expect(($0.body.json as? [String: [Int64]])?["ids"]?.count == 4, "the whole history: every timed photo")
            }
            try await client.execute(uri: "/api/v1/photos/times?from=June", method: .get, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/photos/times", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/v1/photos/times", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect(String(buffer: $0.body) == #"{"ids":[],"times":[]}"#)
            }
        }
    }

    @Test("a file that is not a photo, or has no pixels, is a 422 naming it, and nothing is kept")
    func refused() async throws {
        let fixture = try await Self.fixture()
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            for (name, body) in [("notes.txt", Data("hello".utf8)), ("empty-pixels.jpg", ExifJPEGBuilder().jpeg())] {
                try await client.execute(uri: "/api/v1/photos?filename=\(name)", method: .post, headers: ada, body: ByteBuffer(bytes: body)) {
                    #expect($0.status == .unprocessableContent)
                    #expect(String(buffer: $0.body).contains(name))
                }
            }
            try await client.execute(uri: "/api/v1/photos", method: .get, headers: ada) {
                #expect((($0.body.json as? [String: Any])?["photos"] as? [Any])?.isEmpty == true)
            }
        }
    }
}
