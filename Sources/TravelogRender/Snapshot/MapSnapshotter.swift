import Foundation
import TravelogCore

/// Makes static images of a history on the map (MapKit's `MKMapSnapshotter`): a region (or the
/// data's bounds) snapped to the whole zoom level that shows it whole, a basemap, the path or
/// heatmap, the journal's pins with their titles, a scale bar and the attribution.
public struct MapSnapshotter: Sendable {
    /// What to draw.
    public struct Options: Sendable {
        /// The region to show, or `nil` for the bounds of the drawn fixes.
        public var region: CoordinateRegion?
        /// A map view to show exactly instead of a region: the image's centre and a whole zoom
        /// level (what a slippy map shows at that centre and zoom in an image of this size).
        public var view: MapView?
        /// The image's size in display points.
        public var widthPoints: Int
        public var heightPoints: Int
        /// Image pixels per display point.
        public var pixelScale: Double
        /// Path or heatmap (or points).
        public var layer: HistoryLayer

        public init(region: CoordinateRegion? = nil, widthPoints: Int = 1200, heightPoints: Int = 800,
                    pixelScale: Double = 1, layer: HistoryLayer = .path) {
            self.region = region
            self.widthPoints = widthPoints
            self.heightPoints = heightPoints
            self.pixelScale = pixelScale
            self.layer = layer
        }
    }

    /// A view of the map: a centre and a whole zoom level, as a slippy map (Leaflet, MapKit's
    /// camera) has it.
    public struct MapView: Hashable, Sendable {
        public var center: Coordinate
        public var zoomLevel: Int

        public init(center: Coordinate, zoomLevel: Int) {
            self.center = center
            self.zoomLevel = zoomLevel
        }
    }

    /// The region shown when there is nothing to draw and none was asked for: the world.
    static let worldRegion = try! CoordinateRegion(center: Coordinate(validLatitude: 20, longitude: 0)!,
                                                   span: CoordinateSpan(latitudeDeltaDegrees: 140, longitudeDeltaDegrees: 360))

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Where the image will show the map: the view, exactly, when one is given; otherwise the
    /// region (or the fixes' bounds, with a margin of a tenth on each side) fitted into the image
    /// at a whole zoom level.
    /// - Throws: ``RenderError/sizeOutOfRange(widthPixels:heightPixels:)`` for a bad size.
    public func plan(index: HistoryTileIndex, filter: HistoryTileIndex.Filter) throws(RenderError) -> (projection: MapProjection, zoomLevel: Int) {
        let width = Int((Double(options.widthPoints) * options.pixelScale).rounded())
        let height = Int((Double(options.heightPoints) * options.pixelScale).rounded())
        guard let viewport = try? MapViewport(widthPixels: options.widthPoints, heightPixels: options.heightPoints),
              (1...Canvas.maximumSidePixels).contains(width), (1...Canvas.maximumSidePixels).contains(height) else {
            throw .sizeOutOfRange(widthPixels: width, heightPixels: height)
        }
        guard width * height <= Options.maximumPixels else { throw .tooManyPixels(widthPixels: width, heightPixels: height) }
        if let view = options.view {
            return (MapProjection(mapRect: Self.mapRect(of: view, widthPoints: options.widthPoints, heightPoints: options.heightPoints),
                                  widthPixels: width, pixelScale: options.pixelScale), view.zoomLevel)
        }
        var region = options.region
        if region == nil {
            let bounds = index.bounds(filter: filter)
            if !bounds.isNull {
                let margin = max(bounds.width, bounds.height, 64) / 10
                region = try? CoordinateRegion(bounds.insetBy(dx: -margin, dy: -margin))
            }
        }
        let fit = viewport.fit(region ?? Self.worldRegion)
        return (MapProjection(mapRect: fit.mapRect, widthPixels: width, pixelScale: options.pixelScale), fit.zoomLevel)
    }

    /// The map rect a view shows in an image of this size: centred on the view's centre, one
    /// display point per pixel of the zoom level (kept inside the world north and south, as
    /// ``MapViewport/fit(_:)`` keeps a region).
    static func mapRect(of view: MapView, widthPoints: Int, heightPoints: Int) -> MapRect {
        let zoomScale = MapZoom.zoomScale(zoomLevel: view.zoomLevel)
        let width = Double(widthPoints) / zoomScale, height = Double(heightPoints) / zoomScale
        let center = MapPoint(view.center)
        let world = WebMercator.worldSizeMapPoints
        let top = height >= world ? (world - height) / 2 : min(max(center.y - height / 2, 0), world - height)
        return MapRect(x: center.x - width / 2, y: top, width: width, height: height).worldWrapped
    }

    /// Draws the snapshot.
    /// - Parameters:
    ///   - basemapTiles: the basemap's tiles at the snapshot's zoom (``TileServerBasemap``), or
    ///     `nil` to draw `outlines` instead.
    ///   - tileAttribution: the credit of those tiles.
    /// - Throws: ``RenderError``; ``RenderError/cancelled`` when the task is cancelled (checked
    ///   between the layers, and by the heatmap between its rows).
    public func snapshot(index: HistoryTileIndex, filter: HistoryTileIndex.Filter, pins: [MapPin] = [],
                         outlines: WorldOutlines?, basemapTiles: [Tile: Data]? = nil,
                         tileAttribution: String = "") throws(RenderError) -> Snapshot {
        let (projection, zoomLevel) = try plan(index: index, filter: filter)
        let canvas = try Canvas(widthPixels: Int(projection.widthPixels.rounded()), heightPixels: Int(projection.heightPixels.rounded()))
        var kind = BasemapKind.none
        var attribution = ["Travelog"]
        if let basemapTiles, drawTiles(basemapTiles, zoomLevel: zoomLevel, projection: projection, on: canvas) {
            kind = .tiles
            attribution.append(tileAttribution)
        } else if let outlines {
            outlines.draw(projection: projection, on: canvas)
            kind = .offline
            attribution.append("Natural Earth")
        } else {
            canvas.fill(WorldBaseStyle.land)
        }
        guard !Task.isCancelled else { throw .cancelled }
        let renderer = HistoryTileRenderer(layer: options.layer, pixelScale: options.pixelScale)
        let content = index.content(in: renderer.queryRect(for: projection), zoom: zoomLevel, filter: filter,
                                    parts: renderer.contentParts)
        guard !Task.isCancelled else { throw .cancelled }
        try renderer.draw(content, projection: projection, on: canvas)
        guard !Task.isCancelled else { throw .cancelled }
        PinRenderer(projection: projection).draw(pins, on: canvas)
        MapDecorations.drawScaleBar(projection: projection, on: canvas)
        MapDecorations.drawAttribution(attribution.joined(separator: " · "), projection: projection, on: canvas)
        return Snapshot(pngData: try canvas.pngData(), projection: projection, zoomLevel: zoomLevel, basemap: kind)
    }

    /// The basemap tiles a snapshot at `zoomLevel` needs.
    public static func basemapTiles(for projection: MapProjection, zoomLevel: Int) -> [Tile] {
        Array(Tile.tiles(covering: projection.mapRect, zoom: zoomLevel))
    }

    /// Draws the tiles; `false` (drawing nothing) when one is missing or unreadable.
    private func drawTiles(_ tiles: [Tile: Data], zoomLevel: Int, projection: MapProjection, on canvas: Canvas) -> Bool {
        var images: [(Tile, Canvas)] = []
        for tile in Self.basemapTiles(for: projection, zoomLevel: zoomLevel) {
            guard let data = tiles[tile], let image = try? Canvas(png: data) else { return false }
            images.append((tile, image))
        }
        for (tile, image) in images {
            let corner = projection.point(for: tile.mapRect.origin)
            canvas.draw(image, atX: corner.x, y: corner.y,
                        scale: WebMercator.tileSizePixels * options.pixelScale / Double(image.widthPixels))
        }
        return true
    }
}
