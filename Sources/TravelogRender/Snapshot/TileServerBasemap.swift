import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TravelogCore

/// Basemap tiles from a slippy-map tile server (`https://…/{z}/{x}/{y}.png`), kept in a disk cache
/// so each tile is fetched once. Unreachable servers are given up on quickly: the first failed
/// tile ends the fetch, and the snapshot falls back to the offline world.
public struct TileServerBasemap: Sendable {
    /// The URL template with `{z}`, `{x}`, `{y}` (and optionally `{s}`, replaced by `a`).
    public let urlTemplate: String
    /// Where fetched tiles are kept, as `z/x/y.png`.
    public let cacheDirectory: URL
    /// The credit the tiles require.
    public let attribution: String
    /// How long one tile may take, in seconds.
    public var timeoutSeconds: Double = 4

    public init(urlTemplate: String, cacheDirectory: URL, attribution: String = "© OpenStreetMap contributors") {
        self.urlTemplate = urlTemplate
        self.cacheDirectory = cacheDirectory
        self.attribution = attribution
    }

    /// The URL of a tile.
    public func url(for tile: Tile) -> URL? {
        URL(string: urlTemplate.replacingOccurrences(of: "{z}", with: String(tile.zoom))
            .replacingOccurrences(of: "{x}", with: String(tile.x)).replacingOccurrences(of: "{y}", with: String(tile.y))
            .replacingOccurrences(of: "{s}", with: "a"))
    }

    /// The PNG (or JPEG) bytes of every tile, from the cache or the server, or `nil` as soon as
    /// one cannot be had.
    public func images(for tiles: [Tile]) async -> [Tile: Data]? {
        var images: [Tile: Data] = [:]
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds * 2
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        for tile in tiles {
            let file = cacheDirectory.appendingPathComponent("\(tile.zoom)/\(tile.x)/\(tile.y).png")
            if let cached = FileManager.default.contents(atPath: file.path) {
                images[tile] = cached
                continue
            }
            guard let url = url(for: tile) else { return nil }
            var request = URLRequest(url: url)
            request.setValue("Travelog/1 (self-hosted location history)", forHTTPHeaderField: "User-Agent")
            guard let (data, response) = try? await session.data(for: request),
                  (response as? HTTPURLResponse)?.statusCode == 200, !data.isEmpty else { return nil }
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? data.write(to: file, options: .atomic)
            images[tile] = data
        }
        return images
    }
}
