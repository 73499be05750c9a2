import CCairo

/// The coverage of thick polylines with round joins and caps, rasterised directly: each segment
/// is a capsule (the points within half the line width of it), a pixel's coverage is how far its
/// centre lies inside the nearest capsule (a one-pixel antialiasing ramp), and capsules combine
/// by taking the larger coverage, which is their union, as a stroke is. The mask is then painted
/// in one colour with cairo (``fill(on:color:)``).
///
/// A history path is a dense scribble of short segments; cairo strokes it by building and
/// sweeping an outline polygon with a join at every vertex, which costs seconds for the
/// hundreds of thousands of segments of a year. Here a segment costs the pixels it covers.
///
/// The coverage is the usual distance-based antialiasing: 1 up to half a pixel inside the
/// edge, 0 from half a pixel outside, linear between.
struct LineMask {
    let widthPixels: Int
    let heightPixels: Int
    /// Bytes per row, as cairo's A8 format wants it.
    let strideBytes: Int
    /// Half the line width, in pixels.
    let radiusPixels: Double
    /// Coverage per pixel, 0 to 255, rows of ``strideBytes``.
    private(set) var coverage: [UInt8]

    init(widthPixels: Int, heightPixels: Int, lineWidthPixels: Double) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        strideBytes = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(widthPixels)))
        radiusPixels = lineWidthPixels / 2
        coverage = [UInt8](repeating: 0, count: strideBytes * heightPixels)
    }

    /// Adds the capsule around the segment from `a` to `b` (a round dot when they are equal).
    /// Pixels outside the image are skipped, so a segment costs only its part in the image.
    /// - Complexity: O(pixels within half a line width and a pixel of the segment, in the image).
    mutating func addSegment(from a: PixelPoint, to b: PixelPoint) {
        let reach = radiusPixels + 0.5
        let full = max(0, radiusPixels - 0.5)
        let fullSquared = full * full, reachSquared = reach * reach
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let inverseLength = lengthSquared > 0 ? 1 / lengthSquared : 0
        // Rows whose pixel centres (row + 0.5) lie within reach of the segment.
        let firstRow = max(0, Int((min(a.y, b.y) - reach - 0.5).rounded(.up)))
        let lastRow = min(heightPixels - 1, Int((max(a.y, b.y) + reach - 0.5).rounded(.down)))
        guard firstRow <= lastRow, max(a.x, b.x) + reach >= 0, min(a.x, b.x) - reach <= Double(widthPixels) else { return }
        let width = widthPixels, stride = strideBytes
        coverage.withUnsafeMutableBufferPointer { mask in
            for row in firstRow...lastRow {
                let centreY = Double(row) + 0.5
                // The part of the segment within reach of this row, widened by the reach.
                var low = 0.0, high = 1.0
                if dy != 0 {
                    let t1 = (centreY - reach - a.y) / dy, t2 = (centreY + reach - a.y) / dy
                    low = max(0, min(t1, t2))
                    high = min(1, max(t1, t2))
                    guard low <= high else { continue }
                }
                let x1 = a.x + low * dx, x2 = a.x + high * dx
                let firstColumn = max(0, Int((min(x1, x2) - reach - 0.5).rounded(.up)))
                let lastColumn = min(width - 1, Int((max(x1, x2) + reach - 0.5).rounded(.down)))
                guard firstColumn <= lastColumn else { continue }
                let offsetY = centreY - a.y
                let rowStart = row * stride
                for column in firstColumn...lastColumn {
                    let offsetX = Double(column) + 0.5 - a.x
                    let t = min(1, max(0, (offsetX * dx + offsetY * dy) * inverseLength))
                    let ex = offsetX - t * dx, ey = offsetY - t * dy
                    let distanceSquared = ex * ex + ey * ey
                    guard distanceSquared < reachSquared else { continue }
                    let value: UInt8
                    if distanceSquared <= fullSquared && radiusPixels >= 0.5 {
                        value = 255
                    } else {
                        let cover = min(1, reach - distanceSquared.squareRoot())
                        value = UInt8(cover * 255 + 0.5)
                    }
                    if value > mask[rowStart + column] { mask[rowStart + column] = value }
                }
            }
        }
    }

    /// Paints `color` through the mask onto the canvas (over what is there).
    /// - Throws: ``RenderError/cairoFailed(status:operation:)`` when cairo cannot wrap the mask.
    mutating func fill(on canvas: Canvas, color: RenderColor) throws(RenderError) {
        let (width, height, stride) = (widthPixels, heightPixels, strideBytes)
        let status = coverage.withUnsafeMutableBytes { bytes -> cairo_status_t in
            guard let surface = cairo_image_surface_create_for_data(bytes.baseAddress, CAIRO_FORMAT_A8, Int32(width),
                                                                     Int32(height), Int32(stride)) else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(surface) }
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else { return status }
            canvas.setSource(color)
            cairo_mask_surface(canvas.context, surface, 0, 0)
            return cairo_status(canvas.context)
        }
        try Canvas.check(status, "paint a line mask")
    }
}
