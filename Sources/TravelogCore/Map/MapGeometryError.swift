/// Why a map value (span, region, tile, viewport) could not be constructed.
public enum MapGeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A span's latitude delta (degrees) is outside [0, 180] or its longitude delta outside
    /// [0, 360], or one of them is not finite.
    case spanOutOfRange(latitudeDeltaDegrees: Double, longitudeDeltaDegrees: Double)
    /// The region would reach past a pole: its latitudes (degrees) would leave [-90, 90].
    case regionBeyondPole(southLatitudeDegrees: Double, northLatitudeDegrees: Double)
    /// A distance in metres is negative or not finite.
    case distanceOutOfRange(meters: Double)
    /// A zoom level is outside [0, ``Tile/maximumZoom``].
    case zoomOutOfRange(Int)
    /// A tile's column or row is outside [0, 2^zoom).
    case tileOutOfRange(zoom: Int, x: Int, y: Int)
    /// A viewport needs a positive size in pixels.
    case viewportSizeNotPositive(widthPixels: Int, heightPixels: Int)
    /// A null map rect stands for no place, so it has no region.
    case nullMapRect

    public var description: String {
        switch self {
        case let .spanOutOfRange(latitude, longitude):
            "span \(latitude)° × \(longitude)° is outside [0, 180] × [0, 360]"
        case let .regionBeyondPole(south, north):
            "region from latitude \(south) to \(north) reaches past a pole"
        case .distanceOutOfRange(let meters): "distance \(meters) m is negative or not finite"
        case .zoomOutOfRange(let zoom): "zoom level \(zoom) is outside 0...\(Tile.maximumZoom)"
        case let .tileOutOfRange(zoom, x, y): "tile \(zoom)/\(x)/\(y) lies outside the world at zoom \(zoom)"
        case let .viewportSizeNotPositive(width, height): "viewport \(width) × \(height) px is empty"
        case .nullMapRect: "the null map rect has no region"
        }
    }
}
