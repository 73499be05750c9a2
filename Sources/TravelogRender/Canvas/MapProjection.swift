import TravelogCore

/// A position in an image, in pixels from its top-left corner (x right, y down).
public struct PixelPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y)) px" }
}

/// How an image shows the map: which map rect its pixels cover and how many pixels a map point
/// takes (MapKit's `MKMapSnapshotter.Snapshot.point(for:)` is ``point(for:)-(Coordinate)`` here).
public struct MapProjection: Hashable, Sendable {
    /// The part of the map the image shows; its west edge may lie east of the world when the
    /// image spans the 180th meridian.
    public let mapRect: MapRect
    /// Image pixels per map point (the zoom scale times ``pixelScale``).
    public let pixelsPerMapPoint: Double
    /// Image pixels per display point: 2 for a high-density image.
    public let pixelScale: Double

    /// A projection of a map rect onto an image `widthPixels` wide.
    /// - Precondition: the rect is not empty, the width and scale are positive.
    public init(mapRect: MapRect, widthPixels: Int, pixelScale: Double = 1) {
        precondition(!mapRect.isEmpty && widthPixels > 0 && pixelScale > 0, "an image of nothing")
        self.mapRect = mapRect
        self.pixelsPerMapPoint = Double(widthPixels) / mapRect.width
        self.pixelScale = pixelScale
    }

    /// The projection of one slippy-map tile onto a square image of 256 × `pixelScale` pixels.
    public init(tile: Tile, pixelScale: Double = 1) {
        self.init(mapRect: tile.mapRect, widthPixels: Int(WebMercator.tileSizePixels * pixelScale),
                  pixelScale: pixelScale)
    }

    /// The zoom scale: display points per map point (MapKit's `MKZoomScale`).
    public var zoomScale: Double { pixelsPerMapPoint / pixelScale }
    /// The (fractional) zoom level the image is drawn at.
    public var zoomLevel: Double { MapZoom.zoomLevel(zoomScale: zoomScale) }
    /// The width of a road-like line at this zoom, in image pixels (``MapZoom/roadWidthPixels(zoomLevel:)``).
    public var roadWidthPixels: Double { MapZoom.roadWidthPixels(zoomLevel: zoomLevel) * pixelScale }
    /// The image's width in pixels.
    public var widthPixels: Double { mapRect.width * pixelsPerMapPoint }
    /// The image's height in pixels.
    public var heightPixels: Double { mapRect.height * pixelsPerMapPoint }

    /// Where a map point falls in the image; the copy of the point nearest the image's centre is
    /// used, so points across the 180th meridian land where the eye expects them.
    public func point(for mapPoint: MapPoint) -> PixelPoint {
        let near = mapPoint.wrapped(near: mapRect.center)
        return PixelPoint(x: (near.x - mapRect.minX) * pixelsPerMapPoint, y: (near.y - mapRect.minY) * pixelsPerMapPoint)
    }

    /// Where a coordinate falls in the image (MapKit's `Snapshot.point(for:)`).
    public func point(for coordinate: Coordinate) -> PixelPoint {
        point(for: MapPoint(coordinate))
    }

    /// The pixel of a map point given in the plane as is, without choosing a world copy.
    func unwrappedPoint(for mapPoint: MapPoint) -> PixelPoint {
        PixelPoint(x: (mapPoint.x - mapRect.minX) * pixelsPerMapPoint, y: (mapPoint.y - mapRect.minY) * pixelsPerMapPoint)
    }

    /// The map point under a pixel.
    public func mapPoint(for pixel: PixelPoint) -> MapPoint {
        MapPoint(x: mapRect.minX + pixel.x / pixelsPerMapPoint, y: mapRect.minY + pixel.y / pixelsPerMapPoint)
    }

    /// The whole-world shifts (in map points) that bring a rect onto the image: one for most
    /// shapes, two when the image or the shape spans the 180th meridian.
    func worldShifts(for bounds: MapRect, marginMapPoints: Double = 0) -> [Double] {
        let world = WebMercator.worldSizeMapPoints
        let view = mapRect.insetBy(dx: -marginMapPoints, dy: -marginMapPoints)
        return [-world, 0, world].filter { bounds.offsetBy(dx: $0, dy: 0).intersects(view) }
    }
}
