import TravelogCore

/// Which tiles of a user changed when: a counter bumps for each landed batch, and every tile
/// that batch can colour (its fixes and the segment joining them to the device's previous fix,
/// grown by what a line or the heatmap's kernel reaches) remembers that count. A tile's ETag
/// carries its count, so a cached tile stays valid until new locations land in it.
///
/// At a zoom where a batch covers more than ``tileLimitPerZoom`` tiles, the whole zoom takes the
/// count instead: the state stays small whatever lands.
struct TileVersions: Sendable {
    /// Deepest zoom tracked per tile; deeper tiles use the count of their ancestor at this zoom.
    static let deepestZoom = 20
    static let tileLimitPerZoom = 64
    /// How far outside a batch's fixes a tile can change, in tile pixels (the heatmap's kernel at
    /// scale 2 and a road at zoom 20).
    static let reachPixels: Double = 48

    private(set) var counter: UInt64 = 0
    private var tiles: [Tile: UInt64] = [:]
    private var zoomCounts = [UInt64](repeating: 0, count: deepestZoom + 1)

    /// Records a batch whose fixes (and joining segment) lie in `rect`.
    mutating func landed(in rect: MapRect) {
        counter += 1
        guard !rect.isNull else { return }
        for zoom in 0...Self.deepestZoom {
            let margin = Self.reachPixels / MapZoom.zoomScale(zoomLevel: zoom)
            let cover = Tile.tiles(covering: rect.insetBy(dx: -margin, dy: -margin), zoom: zoom)
            if cover.count > Self.tileLimitPerZoom {
                zoomCounts[zoom] = counter
            } else {
                for tile in cover { tiles[tile] = counter }
            }
        }
    }

    /// Everything changed (an import, a deletion).
    mutating func changedEverywhere() {
        counter += 1
        zoomCounts = zoomCounts.map { _ in counter }
    }

    /// The count of the last batch that touched the tile (0 for none since the start).
    func version(of tile: Tile) -> UInt64 {
        var tracked = tile
        while tracked.zoom > Self.deepestZoom, let parent = tracked.parent { tracked = parent }
        return max(zoomCounts[tracked.zoom], tiles[tracked] ?? 0)
    }
}
