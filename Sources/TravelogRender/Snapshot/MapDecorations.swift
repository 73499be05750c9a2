import CCairo
import Foundation
import TravelogCore

/// The scale bar and the attribution drawn in the corners of a snapshot.
enum MapDecorations {
    /// The longest round length (1, 2 or 5 × 10ⁿ metres) that fits in `maximumPixels` at the
    /// image's centre latitude, and its length in pixels.
    static func scaleBar(projection: MapProjection, maximumPixels: Double) -> (meters: Double, pixels: Double) {
        let latitude = WebMercator.latitudeDegrees(y: projection.mapRect.midY)
        let metersPerPixel = WebMercator.metersPerMapPoint(latitudeDegrees: latitude) / projection.pixelsPerMapPoint
        let limit = maximumPixels * metersPerPixel
        var magnitude = pow(10, (log10(max(limit, 1))).rounded(.down))
        var meters = magnitude
        for factor in [5.0, 2, 1] where factor * magnitude <= limit {
            meters = factor * magnitude
            break
        }
        if meters > limit { magnitude /= 10; meters = magnitude }
        return (meters, meters / metersPerPixel)
    }

    /// "500 m", "2 km", "5000 km".
    static func lengthText(meters: Double) -> String {
        meters >= 1000 ? "\(Int(meters / 1000)) km" : "\(Int(meters)) m"
    }

    /// Draws the scale bar at the bottom left.
    static func drawScaleBar(projection: MapProjection, on canvas: Canvas) {
        let scale = projection.pixelScale
        let (meters, pixels) = scaleBar(projection: projection, maximumPixels: projection.widthPixels / 4)
        let context = canvas.context
        let left = 12 * scale, bottom = projection.heightPixels - 12 * scale
        let text = lengthText(meters: meters)
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(context, 11 * scale)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        let boxWidth = max(pixels, extents.x_advance + 4 * scale) + 8 * scale
        cairo_rectangle(context, left - 4 * scale, bottom - 22 * scale, boxWidth, 26 * scale)
        canvas.setSource(RenderColor.white.withAlpha(0.75))
        cairo_fill(context)
        cairo_move_to(context, left, bottom - 8 * scale)
        cairo_line_to(context, left, bottom)
        cairo_line_to(context, left + pixels, bottom)
        cairo_line_to(context, left + pixels, bottom - 8 * scale)
        canvas.setSource(RenderColor(rgb: 0x1F2328))
        cairo_set_line_width(context, 2 * scale)
        cairo_stroke(context)
        drawText(text, x: left + 4 * scale, y: bottom - 6 * scale, sizePoints: 11, scale: scale, on: canvas)
    }

    /// Draws the attribution at the bottom right on a translucent band.
    static func drawAttribution(_ text: String, projection: MapProjection, on canvas: Canvas) {
        let scale = projection.pixelScale
        let context = canvas.context
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, 10 * scale)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        let x = projection.widthPixels - extents.x_advance - 6 * scale, y = projection.heightPixels - 5 * scale
        cairo_rectangle(context, x - 4 * scale, y - 12 * scale, extents.x_advance + 10 * scale, 17 * scale)
        canvas.setSource(RenderColor.white.withAlpha(0.75))
        cairo_fill(context)
        drawText(text, x: x, y: y, sizePoints: 10, scale: scale, weight: CAIRO_FONT_WEIGHT_NORMAL, on: canvas)
    }

    static func drawText(_ text: String, x: Double, y: Double, sizePoints: Double, scale: Double,
                         weight: cairo_font_weight_t = CAIRO_FONT_WEIGHT_BOLD, on canvas: Canvas) {
        let context = canvas.context
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, weight)
        cairo_set_font_size(context, sizePoints * scale)
        cairo_move_to(context, x, y)
        canvas.setSource(RenderColor(rgb: 0x1F2328))
        cairo_show_text(context, text)
    }
}
