import CCairo
import TravelogCore

/// Draws the library's overlays (polylines, polygons, multipolygons, circles and the live
/// breadcrumb path) onto a canvas that shows a map rect (MapKit's `MKOverlayRenderer`s).
///
/// An overlay whose bounding rect misses the image (on the wrapped world) costs nothing; lines
/// are as wide as a road at the image's zoom unless the style says otherwise; everything is
/// antialiased.
public struct OverlayRenderer {
    /// The projection of the canvas drawn on.
    public let projection: MapProjection
    /// Segments around a circle's edge.
    static let circleSegments = 96

    public init(projection: MapProjection) {
        self.projection = projection
    }

    /// Draws an overlay if it meets the image.
    /// - Returns: whether anything was drawn.
    @discardableResult
    public func draw(_ overlay: any Overlay, style: OverlayStyle, on canvas: Canvas) -> Bool {
        let margin = lineWidthPixels(style) / projection.pixelsPerMapPoint
        guard overlay.intersects(projection.mapRect.insetBy(dx: -margin, dy: -margin)) else { return false }
        switch overlay {
        case let polyline as Polyline:
            strokeLine(polyline.points, bounds: polyline.boundingMapRect, style: style, on: canvas)
        case let path as BreadcrumbPath:
            let polyline = path.snapshot.polyline
            strokeLine(polyline.points, bounds: polyline.boundingMapRect, style: style, on: canvas)
        case let polygon as Polygon:
            drawArea([polygon], style: style, on: canvas)
        case let multi as MultiPolygon:
            drawArea(multi.polygons, style: style, on: canvas)
        case let circle as Circle:
            drawCircle(circle, style: style, on: canvas)
        default:
            return false
        }
        return true
    }

    /// The stroke width of a style at this zoom, in image pixels.
    func lineWidthPixels(_ style: OverlayStyle) -> Double {
        style.lineWidthPoints.map { $0 * projection.pixelScale } ?? projection.roadWidthPixels
    }

    /// Strokes a line through map points given in the plane (already unwrapped).
    func strokeLine(_ points: [MapPoint], bounds: MapRect, style: OverlayStyle, on canvas: Canvas) {
        guard let color = style.strokeColor, !points.isEmpty else { return }
        let context = canvas.context
        let width = lineWidthPixels(style)
        for shift in projection.worldShifts(for: bounds, marginMapPoints: width / projection.pixelsPerMapPoint) {
            appendLine(points, shift: shift, to: context)
        }
        canvas.setSource(color)
        cairo_set_line_width(context, width)
        cairo_stroke(context)
    }

    /// Adds a line to the current cairo path, leaving out vertices closer than a quarter pixel
    /// to the last one drawn (they cannot change the image).
    func appendLine(_ points: [MapPoint], shift: Double, to context: OpaquePointer) {
        var last = PixelPoint(x: .infinity, y: .infinity)
        for (index, point) in points.enumerated() {
            let pixel = projection.unwrappedPoint(for: MapPoint(x: point.x + shift, y: point.y))
            if index == 0 {
                cairo_move_to(context, pixel.x, pixel.y)
                if points.count == 1 { cairo_line_to(context, pixel.x, pixel.y) }  // a dot, with round caps
            } else if abs(pixel.x - last.x) + abs(pixel.y - last.y) >= 0.25 || index == points.count - 1 {
                cairo_line_to(context, pixel.x, pixel.y)
            } else {
                continue
            }
            last = pixel
        }
    }

    /// Fills and strokes polygons with their holes (even-odd), rings drawn in map points.
    func drawArea(_ polygons: [Polygon], style: OverlayStyle, on canvas: Canvas) {
        let context = canvas.context
        for polygon in polygons {
            let rings = ([polygon.exteriorRing] + polygon.interiorRings).map { $0.map(MapPoint.init) }
            for shift in projection.worldShifts(for: polygon.boundingMapRect) {
                for ring in rings {
                    appendLine(ring, shift: shift, to: context)
                    cairo_close_path(context)
                }
            }
        }
        paint(style, on: canvas)
    }

    /// A circle as the polygon of points at its radius (geodesic destinations), so that it is
    /// the right shape at any latitude.
    func drawCircle(_ circle: Circle, style: OverlayStyle, on canvas: Canvas) {
        let ring = (0..<Self.circleSegments).map { step in
            MapPoint(circle.center.destination(bearingDegrees: Double(step) * 360 / Double(Self.circleSegments),
                                               distanceMeters: circle.radiusMeters))
        }
        var unwrapped: [MapPoint] = []
        for point in ring { unwrapped.append(unwrapped.last.map { point.wrapped(near: $0) } ?? point) }
        for shift in projection.worldShifts(for: MapRect(bounding: unwrapped)) {
            appendLine(unwrapped, shift: shift, to: canvas.context)
            cairo_close_path(canvas.context)
        }
        paint(style, on: canvas)
    }

    /// Fills (even-odd) and strokes the current path.
    private func paint(_ style: OverlayStyle, on canvas: Canvas) {
        let context = canvas.context
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
        if let fill = style.fillColor {
            canvas.setSource(fill)
            cairo_fill_preserve(context)
        }
        if let stroke = style.strokeColor {
            canvas.setSource(stroke)
            cairo_set_line_width(context, lineWidthPixels(style))
            cairo_stroke(context)
        } else {
            cairo_new_path(context)
        }
    }
}
