/// A width and height on the Web Mercator plane, in map points.
public struct MapSize: Hashable, Sendable, CustomStringConvertible {
    /// East-west extent in map points, never negative.
    public let width: Double
    /// North-south extent in map points, never negative.
    public let height: Double

    /// Creates a size. Both values must be non-negative (NaN is rejected): a programming error
    /// otherwise, since sizes are computed, not parsed.
    public init(width: Double, height: Double) {
        precondition(width >= 0 && height >= 0, "a map size cannot be negative or NaN: \(width) × \(height)")
        self.width = width
        self.height = height
    }

    /// No extent.
    public static let zero = MapSize(width: 0, height: 0)
    /// The whole world, 2^28 × 2^28 map points.
    public static let world = MapSize(width: WebMercator.worldSizeMapPoints, height: WebMercator.worldSizeMapPoints)

    public var description: String { "MapSize(\(width) × \(height))" }
}
