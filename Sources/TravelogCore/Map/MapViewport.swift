/// A view of the map of a given size in pixels, and the zoom level that shows a region whole in it.
public struct MapViewport: Hashable, Sendable {
    /// Width in pixels, positive.
    public let widthPixels: Int
    /// Height in pixels, positive.
    public let heightPixels: Int
    /// The zoom levels the map offers (those of its tile source).
    public let zoomLevels: ClosedRange<Int>

    /// Creates a viewport.
    /// - Parameters:
    ///   - widthPixels: width in pixels, positive.
    ///   - heightPixels: height in pixels, positive.
    ///   - zoomLevels: the whole zoom levels available, within [0, ``Tile/maximumZoom``]; by
    ///     default those of OpenStreetMap's standard tiles, 0 to 19.
    /// - Throws: ``MapGeometryError/viewportSizeNotPositive(widthPixels:heightPixels:)`` or
    ///   ``MapGeometryError/zoomOutOfRange(_:)``.
    public init(widthPixels: Int, heightPixels: Int, zoomLevels: ClosedRange<Int> = 0...19) throws(MapGeometryError) {
        guard widthPixels > 0, heightPixels > 0 else {
            throw .viewportSizeNotPositive(widthPixels: widthPixels, heightPixels: heightPixels)
        }
        for zoom in [zoomLevels.lowerBound, zoomLevels.upperBound] where !(0...Tile.maximumZoom).contains(zoom) {
            throw .zoomOutOfRange(zoom)
        }
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.zoomLevels = zoomLevels
    }

    /// What the viewport shows once a region is snapped to a whole zoom level.
    public struct Fit: Hashable, Sendable {
        /// The whole zoom level chosen.
        public var zoomLevel: Int
        /// Pixels per map point at that level, 2^(zoomLevel − 20).
        public var zoomScale: Double
        /// The map rect the viewport shows, centred on the requested region (moved north or
        /// south only to stay inside the world).
        public var mapRect: MapRect
        /// The region the viewport shows: it contains the requested region unless even the
        /// lowest zoom level is too close.
        public var region: CoordinateRegion
    }

    /// Snaps a region to the deepest whole zoom level at which it fits in the viewport whole
    /// (like `MKMapView.regionThatFits(_:)`), and says what the viewport then shows.
    ///
    /// The test is exact: the region's map rect, scaled by 2^(z − 20), must be no wider and no
    /// taller than the viewport. If it fits at no offered level, the lowest level is used.
    /// - Complexity: O(number of zoom levels).
    public func fit(_ region: CoordinateRegion) -> Fit {
        let requested = MapRect(region)
        var zoomLevel = zoomLevels.upperBound
        while zoomLevel > zoomLevels.lowerBound && !fits(requested, zoomLevel: zoomLevel) {
            zoomLevel -= 1
        }
        let zoomScale = MapZoom.zoomScale(zoomLevel: zoomLevel)
        let width = Double(widthPixels) / zoomScale, height = Double(heightPixels) / zoomScale
        let world = WebMercator.worldSizeMapPoints
        var top = requested.midY - height / 2
        if height >= world {
            top = (world - height) / 2
        } else {
            top = min(max(top, 0), world - height)
        }
        let shown = MapRect(x: requested.midX - width / 2, y: top, width: width, height: height).worldWrapped
        // The rect is not null, so the region exists.
        let shownRegion = (try? CoordinateRegion(shown)) ?? region
        return Fit(zoomLevel: zoomLevel, zoomScale: zoomScale, mapRect: shown, region: shownRegion)
    }

    /// Whether the rect fits in the viewport at a zoom level; exact, since scaling by a power of
    /// two does not round.
    private func fits(_ rect: MapRect, zoomLevel: Int) -> Bool {
        let zoomScale = MapZoom.zoomScale(zoomLevel: zoomLevel)
        return rect.width * zoomScale <= Double(widthPixels) && rect.height * zoomScale <= Double(heightPixels)
    }
}
