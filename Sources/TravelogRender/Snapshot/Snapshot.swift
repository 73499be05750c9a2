import Foundation
import TravelogCore

/// A static image of the map (MapKit's `MKMapSnapshotter.Snapshot`): the PNG and how the map
/// lies on it.
public struct Snapshot: Sendable {
    /// The image, PNG-encoded.
    public let pngData: Data
    /// Where the map lies on the image.
    public let projection: MapProjection
    /// The whole zoom level the requested region was snapped to.
    public let zoomLevel: Int
    /// What the basemap was drawn from.
    public let basemap: BasemapKind

    /// Where a coordinate falls in the image, in image pixels (MapKit's `point(for:)`).
    public func point(for coordinate: Coordinate) -> PixelPoint {
        projection.point(for: coordinate)
    }

    /// Image width in pixels.
    public var widthPixels: Int { Int(projection.widthPixels.rounded()) }
    /// Image height in pixels.
    public var heightPixels: Int { Int(projection.heightPixels.rounded()) }
}

/// Where a snapshot's basemap came from.
public enum BasemapKind: String, Sendable {
    /// Tiles of the configured tile server (fetched or from the disk cache).
    case tiles
    /// The offline world: Natural Earth outlines and a graticule.
    case offline
    /// No base at all (no outline file and no tile server).
    case none
}
