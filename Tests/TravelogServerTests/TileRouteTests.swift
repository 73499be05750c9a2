import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogRender
import TravelogServer
import TravelogTestSupport

@Suite("History tiles and snapshots")
struct TileRouteTests {
    /// A walk east through central Berlin, a fix a minute.
    static func walk(from minute: Int, count: Int, latitude: Double = 52.52) -> String {
        let items = (0..<count).map { step in
            let time = 1_709_280_000 + (minute + step) * 60
            return #"{"latitude":\#(latitude),"longitude":\#(13.40 + Double(minute + step) * 0.0005),"time":\#(time)}"#
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// The zoom-14 tile the walk starts in.
    static let tile = Tile(containing: Coordinate(validLatitude: 52.52, longitude: 13.40)!, zoom: 14)
    static var tileURI: String { "/api/v1/tiles/path/\(tile).png" }
    static let elsewhere = Tile(containing: Coordinate(validLatitude: 48.14, longitude: 11.58)!, zoom: 14)

    static func post(_ body: String, _ fixture: ServerFixture, _ client: some TestClientProtocol) async throws {
        try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                 body: ByteBuffer(string: body)) { response in
            #expect(response.status == .ok)
        }
    }

    /// How many pixels of a PNG are not transparent.
    static func paintedPixels(_ body: ByteBuffer) throws -> Int {
        let bytes = try Canvas(png: Data(body.readableBytesView)).rgbaBytes()
        return stride(from: 3, to: bytes.count, by: 4).filter { bytes[$0] > 0 }.count
    }

    @Test("a tile needs the read API's authentication")
    func authentication() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: Self.tileURI, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("path, heat and points tiles draw the user's fixes; another user's tile there is empty")
    func layers() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.post(Self.walk(from: 0, count: 20), fixture, client)
            for layer in HistoryLayer.allCases {
                let uri = "/api/v1/tiles/\(layer.rawValue)/\(Self.tile.zoom)/\(Self.tile.x)/\(Self.tile.y).png"
                try await client.execute(uri: uri, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/png")
                    let painted = try Self.paintedPixels(response.body)
                    #expect(painted > 100, "\(layer)")
                }
            }
            try await client.execute(uri: Self.tileURI, method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) { response in
                #expect(response.status == .ok)
                let painted = try Self.paintedPixels(response.body)
                #expect(painted == 0)
            }
            try await client.execute(uri: Self.tileURI + "?from=2030-01-01", method: .get, headers: Auth.bearer(fixture.adaToken)) { response in
                let painted = try Self.paintedPixels(response.body)
                #expect(painted == 0)
            }
        }
    }

    @Test("a tile carries an ETag, answers 304 to it, and gets a new one only when locations land in it")
    func etags() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.post(Self.walk(from: 0, count: 5), fixture, client)
            let auth = Auth.bearer(fixture.adaToken)
            let farURI = "/api/v1/tiles/heat/\(Self.elsewhere.zoom)/\(Self.elsewhere.x)/\(Self.elsewhere.y).png"
            let first = try await client.execute(uri: Self.tileURI, method: .get, headers: auth) { $0.headers[.eTag] }
            let far = try await client.execute(uri: farURI, method: .get, headers: auth) { $0.headers[.eTag] }
            let etag = try #require(first)
            var conditional = auth
            conditional[.ifNoneMatch] = etag
            try await client.execute(uri: Self.tileURI, method: .get, headers: conditional) { response in
                #expect(response.status == .notModified)
            }
            let before = try await client.execute(uri: Self.tileURI, method: .get, headers: auth) { try Self.paintedPixels($0.body) }
            try await Self.post(Self.walk(from: 5, count: 5), fixture, client)
            try await client.execute(uri: Self.tileURI, method: .get, headers: conditional) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] != etag)
                let painted = try Self.paintedPixels(response.body)
                #expect(painted > before)  // the new fixes are drawn
            }
            try await client.execute(uri: farURI, method: .get, headers: auth) { response in
                #expect(response.headers[.eTag] == far)
            }
        }
    }

    @Test("locations older than the device's last fix renew every tile, and the rebuilt index draws them")
    func olderLocations() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.post(Self.walk(from: 20, count: 10), fixture, client)
            let auth = Auth.bearer(fixture.adaToken)
            let farURI = "/api/v1/tiles/heat/\(Self.elsewhere.zoom)/\(Self.elsewhere.x)/\(Self.elsewhere.y).png"
            let before = try await client.execute(uri: Self.tileURI, method: .get, headers: auth) { try Self.paintedPixels($0.body) }
            let far = try await client.execute(uri: farURI, method: .get, headers: auth) { $0.headers[.eTag] }
            try await Self.post(Self.walk(from: 0, count: 10), fixture, client)
            try await client.execute(uri: farURI, method: .get, headers: auth) { response in
                #expect(response.headers[.eTag] != far)
            }
            try await client.execute(uri: Self.tileURI, method: .get, headers: auth) { response in
                let painted = try Self.paintedPixels(response.body)
                #expect(painted > before)  // the earlier stretch, west of the first one
            }
        }
    }

    @Test("GET /api/v1/tiles/bounds answers a range's bounds and count from the index, also after an older upload")
    func bounds() async throws {
        struct Answer: Decodable {
            struct Bounds: Decodable { let west, south, east, north: Double }
            let bounds: Bounds?
            let locationCount: Int
            let devices: [String]
        }
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let auth = Auth.bearer(fixture.adaToken)
            func answer(_ query: String, _ headers: HTTPFields) async throws -> Answer {
                try await client.execute(uri: "/api/v1/tiles/bounds" + query, method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    return try JSONDecoder().decode(Answer.self, from: Data(response.body.readableBytesView))
                }
            }
            try await client.execute(uri: "/api/v1/tiles/bounds", method: .get) { #expect($0.status == .unauthorized) }
            try await Self.post(Self.walk(from: 20, count: 10), fixture, client)
            let all = try await answer("", auth)
            #expect(all.locationCount == 10 && all.devices == ["phone"])
            let bounds = try #require(all.bounds)
            #expect(abs(bounds.west - 13.41) < 1e-5 && abs(bounds.east - 13.4145) < 1e-5)
            #expect(abs(bounds.south - 52.52) < 1e-5 && abs(bounds.north - 52.52) < 1e-5)
            // An upload older than the device's last fix (a late one into an old month) is counted too.
            try await Self.post(Self.walk(from: 0, count: 10), fixture, client)
            let after = try await answer("", auth)
            #expect(after.locationCount == 20)
            #expect(abs((after.bounds?.west ?? 0) - 13.40) < 1e-5)
            let none = try await answer("?from=2030-01-01", auth)
            #expect(none.locationCount == 0 && none.bounds == nil && none.devices.isEmpty)
            // The key is there, null (the OpenAPI document requires it; schemathesis found it left out).
            try await client.execute(uri: "/api/v1/tiles/bounds?from=2030-01-01&device=", method: .get, headers: auth) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
                #expect(object.keys.contains("bounds") && object["bounds"] is NSNull, "\(object)")
            }
            let bob = try await answer("", Auth.basic("bob", ServerFixture.bobPassword))
            #expect(bob.locationCount == 0 && bob.bounds == nil)
        }
    }

    /// Pixels of a PNG within 6 of a colour in each channel, opaque.
    static func pixels(_ body: ByteBuffer, near color: UInt32) throws -> Int {
        let bytes = try Canvas(png: Data(body.readableBytesView)).rgbaBytes()
        let target = [Int(color >> 16 & 0xFF), Int(color >> 8 & 0xFF), Int(color & 0xFF)]
        var count = 0
        for start in stride(from: 0, to: bytes.count, by: 4) where bytes[start + 3] == 255 {
            var near = true
            for channel in 0..<3 where abs(Int(bytes[start + channel]) - target[channel]) > 6 { near = false }
            if near { count += 1 }
        }
        return count
    }

    @Test("the offline world base needs no login and shows land and sea",
          .enabled(if: BuildData.exists("world.tlworld"),
                   BuildData.absentReason("world.tlworld", goal: "world", checks: "the offline world base's tiles")))
    func worldBase() async throws {
        let configuration = ServerConfiguration(port: 0, bcryptCost: 4, worldOutlinesPath: BuildData.path("world.tlworld"))
        let fixture = try await ServerFixture.make(configuration: configuration)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/basemap/0/0/0.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let land = try Self.pixels(response.body, near: 0xF4F1EA), sea = try Self.pixels(response.body, near: 0xDCE9F2)
                #expect(land > 5_000 && sea > 20_000, "land \(land), sea \(sea) of 65536 pixels")
            }
            try await client.execute(uri: "/api/v1/basemap/1/2/0.png", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("without its outline file the offline world base is a 404 that says how to build it")
    func worldBaseAbsent() async throws {
        let fixture = try await ServerFixture.make(configuration: ServerConfiguration(port: 0, bcryptCost: 4, worldOutlinesPath: nil))
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/basemap/0/0/0.png", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("make world"))
            }
        }
    }

    @Test("an unknown layer or a tile outside the world is a 404", arguments: ["/api/v1/tiles/roads/1/0/0.png", "/api/v1/tiles/path/1/2/0.png"])
    func notFound(uri: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: uri, method: .get, headers: Auth.bearer(fixture.adaToken)) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("a snapshot is a PNG of the asked size with the projection in its headers")
    func snapshot() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.post(Self.walk(from: 0, count: 30), fixture, client)
            try await client.execute(uri: "/api/v1/snapshot?size=300x200&scale=2&layer=heat", method: .get,
                                     headers: Auth.bearer(fixture.adaToken)) { response in
                #expect(response.status == .ok)
                let image = try Canvas(png: Data(response.body.readableBytesView))
                #expect(image.widthPixels == 600 && image.heightPixels == 400)
                let rect = try #require(response.headers[HTTPField.Name("X-Travelog-Map-Rect")!]).split(separator: ",").compactMap { Double($0) }
                let scale = try #require(response.headers[HTTPField.Name("X-Travelog-Pixels-Per-Map-Point")!].flatMap(Double.init))
                #expect(rect.count == 4 && abs(rect[2] * scale - 600) < 0.01)
                // The walk's first fix lies inside the image.
                let start = MapPoint(Coordinate(validLatitude: 52.52, longitude: 13.40)!)
                let x = (start.x - rect[0]) * scale, y = (start.y - rect[1]) * scale
                #expect((0..<600).contains(x) && (0..<400).contains(y))
            }
            try await client.execute(uri: "/api/v1/snapshot?size=huge", method: .get, headers: Auth.bearer(fixture.adaToken)) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("Image of this view: a view LAT,LON,ZOOM is drawn at that zoom, centred there; with a region too it is a 400")
    func snapshotOfView() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.post(Self.walk(from: 0, count: 30), fixture, client)
            try await client.execute(uri: "/api/v1/snapshot?view=52.52,13.40,15&size=1400x900", method: .get,
                                     headers: Auth.bearer(fixture.adaToken)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Travelog-Zoom-Level")!] == "15")
                let rect = try #require(response.headers[HTTPField.Name("X-Travelog-Map-Rect")!]).split(separator: ",").compactMap { Double($0) }
                let center = MapPoint(Coordinate(validLatitude: 52.52, longitude: 13.40)!)
                #expect(rect.count == 4 && abs(rect[0] + rect[2] / 2 - center.x) < 1e-3 && abs(rect[1] + rect[3] / 2 - center.y) < 1e-3)
                #expect(rect[2] == 1400 * 32)
            }
            for uri in ["/api/v1/snapshot?view=52.52,13.40,15&region=52.52,13.40,0.1", "/api/v1/snapshot?view=52.52,13.40,15.5"] {
                try await client.execute(uri: uri, method: .get, headers: Auth.bearer(fixture.adaToken)) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains("view"))
                }
            }
        }
    }
}
