import CCairo
import TravelogCore

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
    ///
    /// A history path is mostly segments shorter than the line is wide, so for them the whole
    /// box around the capsule is scanned (one row's range of columns costs two divisions, more
    /// than the few pixels it saves). Only a long diagonal segment clips each row to the pixels
    /// within reach. The per-pixel step has no branches: distances beyond the reach clamp to a
    /// coverage of 0 and the mask keeps the larger value, which costs less than the mispredicted
    /// jumps of testing each pixel (measured: about half the time for 1 px lines).
    /// - Complexity: O(pixels within half a line width and a pixel of the segment, in the image).
    mutating func addSegment(from a: PixelPoint, to b: PixelPoint) {
        let reach = radiusPixels + 0.5
        let dx = b.x - a.x, dy = b.y - a.y
        // Rows and columns whose pixel centres (index + 0.5) lie within reach of the segment.
        let firstRow = max(0, Int((min(a.y, b.y) - reach - 0.5).rounded(.up)))
        let lastRow = min(heightPixels - 1, Int((max(a.y, b.y) + reach - 0.5).rounded(.down)))
        let firstColumn = max(0, Int((min(a.x, b.x) - reach - 0.5).rounded(.up)))
        let lastColumn = min(widthPixels - 1, Int((max(a.x, b.x) + reach - 0.5).rounded(.down)))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
        let capsule = Capsule(a: a, dx: dx, dy: dy, reach: reach)
        let clipsRows = abs(dx) > Self.boxScanPixels && abs(dy) > Self.boxScanPixels
        let stride = strideBytes
        coverage.withUnsafeMutableBufferPointer { mask in
            for row in firstRow...lastRow {
                let centreY = Double(row) + 0.5
                var columns = firstColumn...lastColumn
                if clipsRows {
                    // The part of the segment within reach of this row, widened by the reach.
                    let t1 = (centreY - reach - a.y) / dy, t2 = (centreY + reach - a.y) / dy
                    let low = max(0, min(t1, t2)), high = min(1, max(t1, t2))
                    guard low <= high else { continue }
                    let x1 = a.x + low * dx, x2 = a.x + high * dx
                    let first = max(firstColumn, Int((min(x1, x2) - reach - 0.5).rounded(.up)))
                    let last = min(lastColumn, Int((max(x1, x2) + reach - 0.5).rounded(.down)))
                    guard first <= last else { continue }
                    columns = first...last
                }
                let rowStart = row * stride
                for column in columns {
                    let value = capsule.coverage(x: Double(column) + 0.5, y: centreY)
                    mask[rowStart + column] = max(mask[rowStart + column], value)
                }
            }
        }
    }

    /// A segment longer than this along both axes has each row clipped to its reach; shorter
    /// ones scan their whole box.
    static let boxScanPixels = 4.0

    /// One segment's capsule, ready for per-pixel coverage.
    private struct Capsule {
        let a: PixelPoint
        let dx: Double, dy: Double
        /// 1 / length², or 0 for a dot.
        let inverseLengthSquared: Double
        let reachSquared: Double
        /// 255 × reach + ½: the coverage byte, rounded, is this minus 255 × the distance.
        let reachLevel: Double

        init(a: PixelPoint, dx: Double, dy: Double, reach: Double) {
            self.a = a
            self.dx = dx
            self.dy = dy
            let lengthSquared = dx * dx + dy * dy
            inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
            reachSquared = reach * reach
            reachLevel = reach * 255 + 0.5
        }

        /// The coverage byte of the pixel centred at (`x`, `y`): 255 up to half a pixel inside
        /// the edge, 0 from half a pixel outside, linear between.
        @inline(__always)
        func coverage(x: Double, y: Double) -> UInt8 {
            let offsetX = x - a.x, offsetY = y - a.y
            let t = min(1, max(0, (offsetX * dx + offsetY * dy) * inverseLengthSquared))
            let ex = offsetX - t * dx, ey = offsetY - t * dy
            let distanceSquared = min(ex * ex + ey * ey, reachSquared)
            return UInt8(min(255, reachLevel - 255 * distanceSquared.squareRoot()))
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

extension LineMask {
    /// A vertex closer than this (in pixels) to the last one drawn is skipped, unless it ends its
    /// line: the path moves by at most this much, and a dense track costs what its pixels do.
    static let simplificationPixels = 0.5

    /// Strokes polylines of map points, one mask per colour index (painted in the order of the
    /// indices, each in ``RenderColor/device(_:)``), round joins and caps, `lineWidthPixels` wide.
    /// The history tiles and the review's map draw their paths this way: a year of fixes at one a
    /// second is a scribble cairo's stroker takes minutes and gigabytes over.
    /// - Complexity: O(vertices + the pixels the kept segments cover).
    static func stroke(_ lines: [(colorIndex: Int, points: [MapPoint])], lineWidthPixels: Double, projection: MapProjection,
                       on canvas: Canvas) throws(RenderError) {
        let tolerance = simplificationPixels * simplificationPixels
        for color in Set(lines.map(\.colorIndex)).sorted() {
            var mask = LineMask(widthPixels: canvas.widthPixels, heightPixels: canvas.heightPixels, lineWidthPixels: lineWidthPixels)
            for line in lines where line.colorIndex == color && !line.points.isEmpty {
                var last = projection.point(for: line.points[0])
                if line.points.count == 1 { mask.addSegment(from: last, to: last) }
                for position in line.points.indices.dropFirst() {
                    let pixel = projection.point(for: line.points[position])
                    let dx = pixel.x - last.x, dy = pixel.y - last.y
                    guard dx * dx + dy * dy >= tolerance || position == line.points.count - 1 else { continue }
                    mask.addSegment(from: last, to: pixel)
                    last = pixel
                }
            }
            try mask.fill(on: canvas, color: RenderColor.device(color))
        }
    }
}
