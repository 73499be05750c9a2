import CCairo
import TravelogCore
import TravelogStore

/// Draws the history of a ``HistoryTileIndex`` on slippy-map tiles or on any image of the map.
public struct HistoryTileRenderer {
    /// The layer drawn.
    public let layer: HistoryLayer
    /// Image pixels per display point (2 for high-density tiles).
    public let pixelScale: Double

    public init(layer: HistoryLayer, pixelScale: Double = 1) {
        self.layer = layer
        self.pixelScale = pixelScale
    }

    /// How far outside an image, in its pixels, a fix can still colour it.
    func reachPixels(_ projection: MapProjection) -> Double {
        switch layer {
        case .path, .points: projection.roadWidthPixels + 2
        case .heat: Double(HeatmapRenderer(projection: projection).reachPixels) + 1
        }
    }

    /// What the layer draws from the index's content: lines for the path, fixes otherwise.
    public var contentParts: HistoryTileContent.Parts { layer == .path ? .lines : .fixes }

    /// The area to ask the index for when drawing an image.
    public func queryRect(for projection: MapProjection) -> MapRect {
        let margin = reachPixels(projection) / projection.pixelsPerMapPoint
        return projection.mapRect.insetBy(dx: -margin, dy: -margin)
    }

    /// Reads the index and draws one tile. - Returns: the tile's canvas (transparent where
    /// nothing was travelled).
    /// - Throws: ``RenderError`` when the canvas cannot be made.
    public func drawTile(_ tile: Tile, index: HistoryTileIndex, filter: HistoryTileIndex.Filter) throws(RenderError) -> Canvas {
        let projection = MapProjection(tile: tile, pixelScale: pixelScale)
        let canvas = try Canvas(widthPixels: Int(projection.widthPixels.rounded()), heightPixels: Int(projection.heightPixels.rounded()))
        let content = index.content(in: queryRect(for: projection), zoom: tile.zoom, filter: filter, parts: contentParts)
        try draw(content, projection: projection, on: canvas)
        return canvas
    }

    /// Draws content read from the index onto a canvas showing `projection`.
    /// - Throws: ``RenderError/cairoFailed(status:operation:)`` when cairo cannot paint a path.
    public func draw(_ content: HistoryTileContent, projection: MapProjection, on canvas: Canvas) throws(RenderError) {
        switch layer {
        case .path: try drawLines(content.lines, projection: projection, on: canvas)
        case .heat: HeatmapRenderer(projection: projection).draw(content.fixes, on: canvas)
        case .points: drawDots(content, projection: projection, on: canvas)
        }
    }

    /// Clears every pixel whose centre lies inside one of the zones: a share link's tile shows
    /// nothing there, not even a coarse level's line drawn between two vertices outside a zone.
    /// - Complexity: nothing for an image no zone's rect meets; a zone test per pixel otherwise.
    public func erase(_ hiding: ZoneFilter, projection: MapProjection, on canvas: Canvas) {
        guard !hiding.isEmpty, hiding.intersects(projection.mapRect) else { return }
        let world = WebMercator.worldSizeMapPoints
        canvas.clearPixels { x, y in
            var point = projection.mapPoint(for: PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
            point.x = point.x.truncatingRemainder(dividingBy: world)
            if point.x < 0 { point.x += world }
            return hiding.contains(point)
        }
    }

    /// One mask per device (round joins and caps, ``LineMask``), painted in the device's colour.
    private func drawLines(_ lines: [HistoryTileContent.Line], projection: MapProjection, on canvas: Canvas) throws(RenderError) {
        try LineMask.stroke(lines.map { ($0.deviceIndex, $0.points) }, lineWidthPixels: projection.roadWidthPixels,
                            projection: projection, on: canvas)
    }

    /// A dot per fix, with a thin white rim so that dense dots stay apart.
    private func drawDots(_ content: HistoryTileContent, projection: MapProjection, on canvas: Canvas) {
        let context = canvas.context
        let radius = max(1.5 * pixelScale, projection.roadWidthPixels / 2)
        for device in Set(content.fixDevices).sorted() {
            for (point, owner) in zip(content.fixes, content.fixDevices) where owner == device {
                let pixel = projection.point(for: point.point)
                cairo_new_sub_path(context)
                cairo_arc(context, pixel.x, pixel.y, radius, 0, 2 * .pi)
            }
            canvas.setSource(RenderColor.device(device))
            cairo_fill_preserve(context)
            canvas.setSource(RenderColor.white.withAlpha(0.8))
            cairo_set_line_width(context, max(0.5, radius / 4))
            cairo_stroke(context)
        }
    }
}
