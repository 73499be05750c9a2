import Foundation
import Testing
@testable import TravelogRender

@Suite("Line masks")
struct LineMaskTests {
    /// The coverage byte a pixel centred at `centre` should get from the segment `a`–`b` of
    /// width `lineWidth`, computed the plain way: 1 up to half a pixel inside the capsule's edge,
    /// 0 from half a pixel outside, linear between.
    static func expectedCoverage(_ centre: PixelPoint, _ a: PixelPoint, _ b: PixelPoint, lineWidth: Double) -> Int {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : min(1, max(0, ((centre.x - a.x) * dx + (centre.y - a.y) * dy) / lengthSquared))
        let distance = hypot(centre.x - (a.x + t * dx), centre.y - (a.y + t * dy))
        return Int((min(1, max(0, lineWidth / 2 + 0.5 - distance)) * 255).rounded())
    }

    /// Draws the segments on a 40×30 mask and checks every pixel against the larger expected
    /// coverage of the segments (within one level, for rounding).
    static func expectMatchesReference(_ segments: [(PixelPoint, PixelPoint)], lineWidth: Double,
                                       sourceLocation: SourceLocation = #_sourceLocation) {
        var mask = LineMask(widthPixels: 40, heightPixels: 30, lineWidthPixels: lineWidth)
        for (a, b) in segments { mask.addSegment(from: a, to: b) }
        var mismatches: [String] = []
        var covered = 0
        for row in 0..<30 {
            for column in 0..<40 {
                let centre = PixelPoint(x: Double(column) + 0.5, y: Double(row) + 0.5)
                let expected = segments.map { expectedCoverage(centre, $0.0, $0.1, lineWidth: lineWidth) }.max() ?? 0
                let actual = Int(mask.coverage[row * mask.strideBytes + column])
                if actual > 0 { covered += 1 }
                if abs(actual - expected) > 1 { mismatches.append("(\(column), \(row)): \(actual) ≠ \(expected)") }
            }
        }
        #expect(covered > 0, sourceLocation: sourceLocation)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))", sourceLocation: sourceLocation)
    }

    @Test("short segments, scanned over their whole box, get the distance-based coverage at 1, 1.06 and 3 px")
    func shortSegments() {
        let walk = [PixelPoint(x: 10.2, y: 10.7), PixelPoint(x: 10.9, y: 11.1), PixelPoint(x: 11.3, y: 11.9),
                    PixelPoint(x: 13.6, y: 12.2), PixelPoint(x: 13.6, y: 15.8), PixelPoint(x: 12.1, y: 14.4)]
        let segments = Array(zip(walk, walk.dropFirst())) + [(PixelPoint(x: 25.5, y: 20.25), PixelPoint(x: 25.5, y: 20.25))]
        for lineWidth in [1.0, 1.06, 3.0] { Self.expectMatchesReference(segments, lineWidth: lineWidth) }
    }

    @Test("long diagonal segments, clipped row by row, get the same coverage as a plain scan")
    func longDiagonals() {
        let segments = [(PixelPoint(x: 2.3, y: 3.1), PixelPoint(x: 37.8, y: 26.4)),
                        (PixelPoint(x: 35.2, y: 1.7), PixelPoint(x: 5.9, y: 27.3)),
                        (PixelPoint(x: 8.5, y: 25.0), PixelPoint(x: 14.1, y: 5.2))]
        for lineWidth in [1.0, 1.5, 4.0] { Self.expectMatchesReference(segments, lineWidth: lineWidth) }
    }

    @Test("a segment crossing the image's edges colours only its part inside")
    func clipsToImage() {
        let segments = [(PixelPoint(x: -12.0, y: -8.0), PixelPoint(x: 52.0, y: 40.0)),
                        (PixelPoint(x: -5.0, y: 15.3), PixelPoint(x: 45.0, y: 15.3)),
                        (PixelPoint(x: -3.0, y: -3.0), PixelPoint(x: -1.0, y: -2.0))]
        Self.expectMatchesReference(segments, lineWidth: 2)
    }
}
