import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogRender
import TravelogServer

@Suite("Share links drawn from the owner's history tiles")
struct ShareTileRouteTests {
    static let ada = ShareRouteTests.ada
    /// 100 fixes 30 s apart on 2 May 2024, east along 60.17° N from 24.900° to 24.989° E (about 50 m
    /// apart), and ten on 3 May near Munich.
    static let history = "time,latitude,longitude\n"
        + (0..<100).map { index in
            let time = Date(timeIntervalSince1970: 1_714_644_000 + Double(index) * 30)
            return "\(time.formatted(.iso8601)),60.17,\(String(format: "%.4f", 24.9 + 0.0009 * Double(index)))\n"
        }.joined()
        + (0..<10).map { "2024-05-03T10:0\($0):00Z,48.3,11.7\($0)\n" }.joined()
    /// A hiding zone round the walk's middle fix (24.945° E): its 21 fixes from the 41st to the 61st lie
    /// within 520 m (ten steps are 502 m, eleven 552 m).
    static let zone = #"{"name":"Home","rule":"hide","circle":{"latitude":60.17,"longitude":24.945,"radiusMeters":520}}"#

    /// The alpha of the pixel at a coordinate in a tile's PNG, and of its neighbours within `reach` pixels (the most).
    static func alpha(_ png: Data, tile: Tile, at coordinate: Coordinate, reach: Int = 1) throws -> UInt8 {
        let canvas = try Canvas(png: png)
        let pixel = MapProjection(tile: tile).point(for: coordinate)
        let bytes = canvas.rgbaBytes()
        var most: UInt8 = 0
        for dy in -reach...reach {
            for dx in -reach...reach {
                let x = Int(pixel.x) + dx, y = Int(pixel.y) + dy
                guard (0..<canvas.widthPixels).contains(x), (0..<canvas.heightPixels).contains(y) else { continue }
                most = max(most, bytes[(y * canvas.widthPixels + x) * 4 + 3])
            }
        }
        return most
    }

    static func tile(_ client: some TestClientProtocol, _ prefix: String, at coordinate: Coordinate, zoom: Int = 15,
                     headers: HTTPFields = [:]) async throws -> (Tile, Data) {
        let tile = Tile(containing: coordinate, zoom: zoom)
        // The tile's z/x/y.png goes between the prefix's path and its query, if it has one.
        let parts = prefix.split(separator: "?", maxSplits: 1)
        let uri = "\(parts[0])/\(tile.zoom)/\(tile.x)/\(tile.y).png" + (parts.count > 1 ? "?\(parts[1])" : "")
        return try await client.execute(uri: uri, method: .get, headers: headers) { response in
            #expect(response.status == .ok, "\(uri): \(response.status) \(response.body.text.prefix(200))")
            #expect(response.headers[.contentType] == "image/png")
            return (tile, Data(response.body.readableBytesView))
        }
    }

    static func bounds(_ client: some TestClientProtocol, _ token: String) async throws -> [String: Any] {
        try await client.execute(uri: "/api/v1/s/\(token)/bounds", method: .get) { response in
            #expect(response.status == .ok, "\(response.body.text)")
            #expect(response.headers[.cacheControl] == "no-store")
            return try #require(response.body.json as? [String: Any])
        }
    }

    @Test("a link's bounds and tiles show its range only, from the owner's tiles; a privacy zone is cut out of both, as out of its path")
    func tilesAndZones() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await ShareRouteTests.upload(client, Self.history)
            let made = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02"}"#)
            let token = try #require(made["token"] as? String)
            try await client.execute(uri: "/api/v1/s/\(token)", method: .get) { response in
                #expect((response.body.json as? [String: Any])?["vectorPathFixLimit"] as? Int == 50_000)
            }
            // The day's fixes only (the owner's range of both days would reach Munich).
            var answer = try await Self.bounds(client, token)
            #expect(answer["locationCount"] as? Int == 100)
            #expect(answer["devices"] as? [String] == [])
            var box = try #require(answer["bounds"] as? [String: Double])
            #expect(abs((box["west"] ?? 0) - 24.9) < 1e-5 && abs((box["east"] ?? 0) - 24.9891) < 1e-5, "\(box)")
            #expect(abs((box["south"] ?? 0) - 60.17) < 1e-5 && abs((box["north"] ?? 0) - 60.17) < 1e-5, "\(box)")

            let middle = try Coordinate(latitude: 60.17, longitude: 24.945)
            let east = try Coordinate(latitude: 60.17, longitude: 24.98)
            let munich = try Coordinate(latitude: 48.3, longitude: 11.72)
            let owner = "/api/v1/tiles/path?from=2024-05-01&to=2024-05-04"
            let shared = "/api/v1/s/\(token)/tiles"
            // The owner's tiles have the walk and Munich; the link's the walk only.
            for place in [middle, east] {
                let (ownerTile, ownerPNG) = try await Self.tile(client, owner, at: place, headers: Self.ada)
                #expect(try Self.alpha(ownerPNG, tile: ownerTile, at: place) > 128)
                let (tile, png) = try await Self.tile(client, shared, at: place)
                #expect(try Self.alpha(png, tile: tile, at: place) > 128)
            }
            let (ownerMunich, ownerMunichPNG) = try await Self.tile(client, owner, at: munich, headers: Self.ada)
            #expect(try Self.alpha(ownerMunichPNG, tile: ownerMunich, at: munich) > 128)
            let (munichTile, munichPNG) = try await Self.tile(client, shared, at: munich)
            #expect(try Self.alpha(munichPNG, tile: munichTile, at: munich, reach: 128) == 0, "nothing of the day after")

            // A hiding zone: 21 fixes fewer, the same as the path counts, and nothing drawn inside it,
            // at a zoom drawn from every fix and at one drawn from a simplified level.
            try await client.execute(uri: "/api/v1/zones", method: .post, headers: ShareRouteTests.json(Self.ada),
                                     body: ByteBuffer(Self.zone)) { #expect($0.status == .created, "\($0.body.text)") }
            answer = try await Self.bounds(client, token)
            #expect(answer["locationCount"] as? Int == 79)
            box = try #require(answer["bounds"] as? [String: Double])
            #expect(abs((box["west"] ?? 0) - 24.9) < 1e-5 && abs((box["east"] ?? 0) - 24.9891) < 1e-5, "\(box)")
            try await client.execute(uri: "/api/v1/s/\(token)/path?zoom=15", method: .get) { response in
                let path = try #require(response.body.json as? [String: Any])
                #expect((path["properties"] as? [String: Any])?["rawPointCount"] as? Int == 79)
            }
            for zoom in [12, 15, 18] {
                let (ownerTile, ownerPNG) = try await Self.tile(client, owner, at: middle, zoom: zoom, headers: Self.ada)
                #expect(try Self.alpha(ownerPNG, tile: ownerTile, at: middle) > 128, "the owner still sees it at \(zoom)")
                let (tile, png) = try await Self.tile(client, shared, at: middle, zoom: zoom)
                #expect(try Self.alpha(png, tile: tile, at: middle, reach: zoom >= 15 ? 10 : 2) == 0, "zone cleared at zoom \(zoom)")
                let (eastTile, eastPNG) = try await Self.tile(client, shared, at: east, zoom: zoom)
                #expect(try Self.alpha(eastPNG, tile: eastTile, at: east) > 128, "outside the zone still drawn at \(zoom)")
            }

            // A zone between two fixes 50 m apart holds none of them, yet the line between them is not drawn across it.
            let gap = try Coordinate(latitude: 60.17, longitude: 24.90045)
            try await client.execute(uri: "/api/v1/zones", method: .post, headers: ShareRouteTests.json(Self.ada),
                                     body: ByteBuffer(#"{"name":"Gap","rule":"hide","circle":{"latitude":60.17,"longitude":24.90045,"radiusMeters":12}}"#)) {
                #expect($0.status == .created, "\($0.body.text)")
            }
            #expect(try await Self.bounds(client, token)["locationCount"] as? Int == 79)
            let (ownerGap, ownerGapPNG) = try await Self.tile(client, owner, at: gap, zoom: 19, headers: Self.ada)
            #expect(try Self.alpha(ownerGapPNG, tile: ownerGap, at: gap) > 128)
            let (gapTile, gapPNG) = try await Self.tile(client, shared, at: gap, zoom: 19)
            #expect(try Self.alpha(gapPNG, tile: gapTile, at: gap, reach: 8) == 0, "the zone's pixels are cleared")
            let beside = try Coordinate(latitude: 60.17, longitude: 24.9008)
            let (besideTile, besidePNG) = try await Self.tile(client, shared, at: beside, zoom: 19)
            #expect(try Self.alpha(besidePNG, tile: besideTile, at: beside) > 128, "the line beside the zone is drawn")

            // A high-density tile; bad tiles; another user's bounds are not reachable by any token.
            let (tile, _) = try await Self.tile(client, shared, at: east)
            let retina = try await client.execute(uri: "\(shared)/\(tile.zoom)/\(tile.x)/\(tile.y).png?scale=2", method: .get) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            #expect(try Canvas(png: retina).widthPixels == 512)
            for bad in ["23/0/0.png", "3/8/0.png", "3/0/-1.png", "a/b/c.png"] {
                try await client.execute(uri: "\(shared)/\(bad)", method: .get) { #expect($0.status == .notFound, "\(bad)") }
            }
            try await client.execute(uri: "\(shared)/1/0/0.png?scale=3", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @Test("bounds and tiles ask a password link's key, are gone with the link, and unknown to a guess")
    func lockedRevokedGuessed() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await ShareRouteTests.upload(client, Self.history)
            let locked = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02","password":"open sesame"}"#)
            let lockedToken = try #require(locked["token"] as? String)
            for path in ["bounds", "tiles/15/18654/9286.png"] {
                try await client.execute(uri: "/api/v1/s/\(lockedToken)/\(path)", method: .get) { #expect($0.status == .unauthorized) }
            }
            let key = try await client.execute(uri: "/api/v1/s/\(lockedToken)/unlock", method: .post, headers: ShareRouteTests.json([:]),
                                               body: ByteBuffer(#"{"password":"open sesame"}"#)) { response in
                try #require((response.body.json as? [String: String])?["key"])
            }
            let (tile, png) = try await Self.tile(client, "/api/v1/s/\(lockedToken)/tiles", at: try Coordinate(latitude: 60.17, longitude: 24.98),
                                                  headers: HTTPFields().adding("X-Share-Key", key))
            #expect(try Self.alpha(png, tile: tile, at: try Coordinate(latitude: 60.17, longitude: 24.98)) > 128)

            let made = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02"}"#)
            let token = try #require(made["token"] as? String), id = try #require(made["id"] as? Int)
            try await client.execute(uri: "/api/v1/shares/\(id)", method: .delete, headers: Self.ada) { #expect($0.status == .noContent) }
            for path in ["bounds", "tiles/15/18654/9286.png"] {
                try await client.execute(uri: "/api/v1/s/\(token)/\(path)", method: .get) { #expect($0.status == .gone, "\(path)") }
                try await client.execute(uri: "/api/v1/s/\(ShareLinks.newToken())/\(path)", method: .get) { #expect($0.status == .notFound) }
            }
        }
    }
}
