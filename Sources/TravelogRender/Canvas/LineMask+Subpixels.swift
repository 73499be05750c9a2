/// Thin lines, supersampled: each segment marks the subpixels of a band as wide as the line
/// along it (a column of subpixels per subpixel step when it runs more across than down, a row
/// otherwise, as tall as the line's width across that column), and a pixel's coverage is the
/// share of its 16 subpixels marked: box-filter antialiasing on a 4 × 4 grid.
extension LineMask {
    /// Subpixels per pixel side.
    static let subpixelsPerPixel = 4

    /// Marks the band of the segment from `a` to `b` (a square as wide as the line when they are
    /// equal), clipped to the image.
    /// - Complexity: O(subpixel steps along the clipped segment × the line's width in subpixels).
    mutating func addThinSegment(from a: PixelPoint, to b: PixelPoint) {
        let scale = Double(Self.subpixelsPerPixel)
        let widthSubpixels = max(1, radiusPixels * 2 * scale)
        let columns = widthPixels * Self.subpixelsPerPixel, rows = heightPixels * Self.subpixelsPerPixel
        var x0 = a.x * scale, y0 = a.y * scale
        let dx = (b.x - a.x) * scale, dy = (b.y - a.y) * scale
        // The part of the segment within the image grown by the line's width (Liang–Barsky).
        var low = 0.0, high = 1.0
        func clip(start: Double, delta: Double, limit: Int) -> Bool {
            let lower = -widthSubpixels - start, upper = Double(limit) + widthSubpixels - start
            guard delta != 0 else { return lower <= 0 && upper >= 0 }
            let t1 = lower / delta, t2 = upper / delta
            low = max(low, min(t1, t2))
            high = min(high, max(t1, t2))
            return low <= high
        }
        guard clip(start: x0, delta: dx, limit: columns), clip(start: y0, delta: dy, limit: rows) else { return }
        x0 += low * dx
        y0 += low * dy
        let spanX = dx * (high - low), spanY = dy * (high - low)
        let across = abs(dx) >= abs(dy)
        let major = across ? abs(dx) : abs(dy)
        // The band's extent along the minor axis: the width, grown as the line slants.
        let length = (dx * dx + dy * dy).squareRoot()
        let band = major > 0 ? widthSubpixels * length / major : widthSubpixels
        let steps = max(0, Int(((major * (high - low))).rounded(.up)))
        let width = widthPixels
        subpixels.withUnsafeMutableBufferPointer { grid in
            func mark(column: Int, row: Int) {
                guard column >= 0, column < columns, row >= 0, row < rows else { return }
                grid[(row >> 2) * width + (column >> 2)] |= 1 << UInt16((row & 3) << 2 | (column & 3))
            }
            if major == 0 {
                // A dot: a square as wide as the line.
                let firstRow = Int((y0 - widthSubpixels / 2).rounded()), firstColumn = Int((x0 - widthSubpixels / 2).rounded())
                let side = max(1, Int(widthSubpixels.rounded()))
                for row in firstRow..<(firstRow + side) {
                    for column in firstColumn..<(firstColumn + side) { mark(column: column, row: row) }
                }
                return
            }
            for step in 0...steps {
                let t = steps == 0 ? 0 : Double(step) / Double(steps)
                let x = x0 + t * spanX, y = y0 + t * spanY
                if across {
                    let column = Int(x.rounded(.down))
                    let first = Int((y - band / 2).rounded()), last = Int((y + band / 2).rounded()) - 1
                    for row in first...max(first, last) { mark(column: column, row: row) }
                } else {
                    let row = Int(y.rounded(.down))
                    let first = Int((x - band / 2).rounded()), last = Int((x + band / 2).rounded()) - 1
                    for column in first...max(first, last) { mark(column: column, row: row) }
                }
            }
        }
    }

    /// Turns the marked subpixels into the coverage cairo paints.
    mutating func resolveSubpixels() {
        let width = widthPixels, stride = strideBytes
        let full = Self.subpixelsPerPixel * Self.subpixelsPerPixel
        subpixels.withUnsafeBufferPointer { grid in
            coverage.withUnsafeMutableBufferPointer { mask in
                for row in 0..<heightPixels {
                    for column in 0..<width {
                        let marked = grid[row * width + column].nonzeroBitCount
                        let value = (marked * 255 + full / 2) / full
                        if value > mask[row * stride + column] { mask[row * stride + column] = UInt8(value) }
                    }
                }
            }
        }
    }
}
