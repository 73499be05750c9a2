import CCairo
import TravelogCore

/// Draws the Explored layer (fog of war) of a ``HistoryTileIndex`` on slippy-map tiles: fog over
/// the whole tile, cleared where a cell of ``ExploredCells`` was visited. Below zoom 13 the tile's
/// explored pixels are cleared, grown to a few pixels at world zooms so that a trip stays visible;
/// deeper, every cell of about 25 m is cleared as its own rectangle.
public struct ExploredTileRenderer {
    /// The fog's colour.
    public static let fog = RenderColor(rgb: 0x2B3440, alpha: 0.62)
    /// Image pixels per display point (2 for high-density tiles).
    public let pixelScale: Double

    public init(pixelScale: Double = 1) {
        self.pixelScale = pixelScale
    }

    /// The smallest side of a cleared square at a zoom, display pixels: 3 up to zoom 8, 2 up to 12, then 1.
    static func minimumSidePixels(zoom: Int) -> Double {
        zoom <= 8 ? 3 : zoom < ExploredCells.bucketZoom ? 2 : 1
    }

    /// Draws one tile from the explored parts `ExploredCells.exploredRects(in:)` found.
    /// - Throws: ``RenderError`` when the canvas cannot be made.
    public func drawTile(_ tile: Tile, explored rects: [MapRect]) throws(RenderError) -> Canvas {
        let projection = MapProjection(tile: tile, pixelScale: pixelScale)
        let canvas = try Canvas(widthPixels: Int(projection.widthPixels.rounded()), heightPixels: Int(projection.heightPixels.rounded()))
        canvas.fill(Self.fog)
        let context = canvas.context
        let side = Self.minimumSidePixels(zoom: tile.zoom) * pixelScale
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
        for rect in rects {
            let corner = projection.point(for: rect.origin)
            var width = rect.width * projection.pixelsPerMapPoint, height = rect.height * projection.pixelsPerMapPoint
            var x = corner.x, y = corner.y
            if width < side { x -= (side - width) / 2; width = side }
            if height < side { y -= (side - height) / 2; height = side }
            cairo_rectangle(context, x.rounded(.down), y.rounded(.down), max(1, (x + width).rounded(.up) - x.rounded(.down)),
                            max(1, (y + height).rounded(.up) - y.rounded(.down)))
        }
        cairo_fill(context)
        cairo_restore(context)
        return canvas
    }
}
