import Foundation
import Testing
@testable import TravelogCore

@Suite("Exact degree arithmetic")
struct DegreeArithmeticTests {
    @Test("sine and cosine are exact at multiples of 90° and keep the sign of zero", arguments: [
        (0.0, 0.0, 1.0), (-0.0, -0.0, 1.0), (90.0, 1.0, 0.0), (180.0, 0.0, -1.0), (-180.0, -0.0, -1.0),
        (270.0, -1.0, 0.0), (360.0, 0.0, 1.0), (-90.0, -1.0, 0.0), (720.0 + 90.0, 1.0, 0.0),
    ])
    func sinCos(degrees: Double, sine: Double, cosine: Double) {
        let (s, c) = DegreeArithmetic.sinCos(degrees)
        #expect(s == sine && s.sign == sine.sign)
        #expect(c == cosine && c.sign == cosine.sign)  // never -0
    }

    @Test("atan2 in degrees is exact on the axes and keeps ±180")
    func atan2() {
        #expect(DegreeArithmetic.atan2(1, 0) == 90)
        #expect(DegreeArithmetic.atan2(-1, 0) == -90)
        #expect(DegreeArithmetic.atan2(0, -1) == 180)
        #expect(DegreeArithmetic.atan2(-0.0, -1) == -180)
        #expect(DegreeArithmetic.atan2(1, 1) == 45)
    }

    @Test("an angle difference is exact, with its rounding error, and keeps the direction of ±180")
    func difference() {
        #expect(DegreeArithmetic.difference(from: 179.5, to: -179.75) == (0.75, 0))
        #expect(DegreeArithmetic.difference(from: 0, to: 180).difference == 180)
        #expect(DegreeArithmetic.difference(from: 180, to: 0).difference == -180)
        #expect(DegreeArithmetic.difference(from: 10, to: 370).difference == 0)
        // 1e-20 survives next to 1e3 as the error term.
        let (big, small) = DegreeArithmetic.difference(from: -1e-20, to: 100)
        #expect(big == 100 && small == 1e-20)
    }

    @Test("normalised angles lie in [-180, 180] with ±180 keeping the input's sign")
    func normalized() {
        #expect(DegreeArithmetic.normalized(540) == 180)
        #expect(DegreeArithmetic.normalized(-540) == -180)
        #expect(DegreeArithmetic.normalized(190) == -170)
        #expect(DegreeArithmetic.normalized(-0.0).sign == .minus)
    }

    @Test("tiny angles round to zero, others keep about 57 fractional bits")
    func rounded() {
        #expect(DegreeArithmetic.rounded(1e-20) == 0)
        #expect(DegreeArithmetic.rounded(-1e-20).sign == .minus)
        #expect(DegreeArithmetic.rounded(45) == 45)
        #expect(abs(DegreeArithmetic.rounded(1e-10) - 1e-10) <= 1e-17)
    }

    @Test("the astroid root solves its quartic", arguments: [(-0.5, 0.3), (-1.2, -0.01), (0.2, 2.0), (-0.99, 1e-6)])
    func astroid(x: Double, y: Double) {
        let k = Geodesic.astroid(x, y)
        let residual = k * k * k * k + 2 * k * k * k - (x * x + y * y - 1) * k * k - 2 * y * y * k - y * y
        #expect(k > 0)
        #expect(abs(residual) <= 1e-14 * max(1, k * k * k * k))
    }

    @Test("a compensated sum keeps what plain addition loses")
    func compensatedSum() {
        var sum = CompensatedSum()
        for term in [1e16, 1, -1e16, 1e-3] { sum.add(term) }
        #expect(sum.value == 1.001)
        sum.formRemainder(dividingBy: 1)
        #expect(abs(sum.value - 0.001) <= 1e-18)
    }
}
