import TravelogCore
import TravelogRender

/// The answer of `GET /api/v1/tiles/bounds`: the rect of a range's fixes in degrees (`null` when
/// the range has none: the OpenAPI document requires the key), their number and the names of their devices.
struct HistoryBoundsAnswer: Encodable, Sendable {
    /// West, south, east and north edges in degrees.
    struct Bounds: Encodable, Sendable {
        let west: Double
        let south: Double
        let east: Double
        let north: Double
    }

    let bounds: Bounds?
    let locationCount: Int
    /// Sorted.
    let devices: [String]

    private enum CodingKeys: String, CodingKey { case bounds, locationCount, devices }

    /// Writes `bounds` as `null` when there are none (the synthesized encoder would leave the key out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bounds, forKey: .bounds)
        try container.encode(locationCount, forKey: .locationCount)
        try container.encode(devices, forKey: .devices)
    }

    /// - Parameter deviceNames: the name of each device index of the index.
    init(_ summary: HistoryTileIndex.Summary, deviceNames: [Int: String]) {
        locationCount = summary.fixCount
        devices = summary.deviceIndices.compactMap { deviceNames[$0] }.sorted()
        guard !summary.bounds.isNull else {
            bounds = nil
            return
        }
        // Corners read directly (not through a region, whose west edge wraps round for a rect a world wide).
        let northWest = MapPoint(x: summary.bounds.minX, y: summary.bounds.minY).coordinate
        let southEast = MapPoint(x: summary.bounds.maxX, y: summary.bounds.maxY).coordinate
        bounds = Bounds(west: northWest.longitude, south: southEast.latitude, east: southEast.longitude, north: northWest.latitude)
    }
}
