import CCairo
import TravelogCore

/// Draws pins and their titles so that many pins stay readable: every pin is drawn, but a title
/// is left out where it would cover a title already placed (pins are taken in the order given,
/// so put the important ones first).
public struct PinRenderer {
    /// The projection of the canvas drawn on.
    public let projection: MapProjection
    /// The pin's colour.
    public var color = RenderColor(rgb: 0xD1242F)
    /// The radius of a pin's head, in display points.
    static let headRadiusPoints = 6.0
    /// The title's font size, in display points.
    static let titleSizePoints = 12.0

    public init(projection: MapProjection) {
        self.projection = projection
    }

    /// Draws the pins that fall in the image. - Returns: how many titles were drawn.
    @discardableResult
    public func draw(_ pins: [MapPin], on canvas: Canvas) -> Int {
        let context = canvas.context
        let scale = projection.pixelScale
        let radius = Self.headRadiusPoints * scale
        var placed: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] = []
        var titles = 0
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(context, Self.titleSizePoints * scale)
        for pin in pins {
            let tip = projection.point(for: pin.coordinate)
            guard tip.x >= -radius, tip.y >= -3 * radius, tip.x <= projection.widthPixels + radius,
                  tip.y <= projection.heightPixels + 3 * radius else { continue }
            drawMarker(at: tip, radius: radius, on: canvas)
            guard !pin.title.isEmpty else { continue }
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, pin.title, &extents)
            let x = tip.x + radius * 1.4, y = tip.y - radius * 2 + extents.height / 2
            let box = (minX: x - 2 * scale, minY: y - extents.height - 2 * scale,
                       maxX: x + extents.x_advance + 2 * scale, maxY: y + 3 * scale)
            if placed.contains(where: { $0.minX < box.maxX && box.minX < $0.maxX && $0.minY < box.maxY && box.minY < $0.maxY }) {
                continue
            }
            placed.append(box)
            titles += 1
            cairo_move_to(context, x, y)
            cairo_text_path(context, pin.title)
            canvas.setSource(RenderColor.white.withAlpha(0.9))
            cairo_set_line_width(context, 3 * scale)
            cairo_stroke_preserve(context)
            canvas.setSource(RenderColor(rgb: 0x1F2328))
            cairo_fill(context)
        }
        return titles
    }

    /// A round head on a short stem whose end is the pin's coordinate.
    private func drawMarker(at tip: PixelPoint, radius: Double, on canvas: Canvas) {
        let context = canvas.context
        let head = PixelPoint(x: tip.x, y: tip.y - radius * 2)
        cairo_move_to(context, tip.x, tip.y)
        cairo_line_to(context, head.x, head.y)
        canvas.setSource(RenderColor(rgb: 0x1F2328))
        cairo_set_line_width(context, max(1.5, radius / 3))
        cairo_stroke(context)
        cairo_new_sub_path(context)
        cairo_arc(context, head.x, head.y, radius, 0, 2 * .pi)
        canvas.setSource(color)
        cairo_fill_preserve(context)
        canvas.setSource(.white)
        cairo_set_line_width(context, max(1, radius / 4))
        cairo_stroke(context)
    }
}
