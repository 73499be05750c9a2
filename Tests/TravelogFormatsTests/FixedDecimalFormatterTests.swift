import Foundation
import Testing
import TravelogTestSupport
import TravelogFormats

@Suite("Fixed-decimal formatting")
struct FixedDecimalFormatterTests {
    /// Foundation's `String(format: "%.*f")` (glibc's exactly rounded printf underneath), with the one
    /// documented difference: no minus sign on a result that is zero.
    static func reference(_ value: Double, decimals: Int) -> String {
        let printed = String(format: "%.\(decimals)f", value)
        let isZero = printed.allSatisfy { $0 == "-" || $0 == "0" || $0 == "." }
        return isZero && printed.hasPrefix("-") ? String(printed.dropFirst()) : printed
    }

    @Test("coordinates at 7 decimals match printf on 200,000 random values")
    func randomCoordinates() {
        var random = SplitMix64(seed: 7)
        var mismatches: [Double] = []
        for _ in 0..<200_000 {
            let value = Double.random(in: -180...180, using: &random)
            if FixedDecimalFormatter.string(value, decimals: 7) != Self.reference(value, decimals: 7) {
                mismatches.append(value)
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test("values a hair from a rounding tie match printf", arguments: [7, 3])
    func nearTies(decimals: Int) {
        var random = SplitMix64(seed: 11)
        let scale = pow(10, Double(decimals))
        var mismatches: [Double] = []
        for _ in 0..<50_000 {
            // k/10^d + ½·10^-d, then nudged by a few ulps either way: the cases where the rounded
            // product alone would decide wrongly.
            let tie = (Double(Int64.random(in: -1_800_000_000...1_800_000_000, using: &random)) + 0.5) / scale
            var value = tie
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                value = Bool.random(using: &random) ? value.nextUp : value.nextDown
            }
            if FixedDecimalFormatter.string(value, decimals: decimals) != Self.reference(value, decimals: decimals) {
                mismatches.append(value)
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test("exact binary ties round half to even, as printf does")
    func exactTies() {
        // 1/256 = 0.00390625 is exactly between 0.0039062 and 0.0039063; 3/256 = 0.01171875 between …187 and …188.
        #expect(FixedDecimalFormatter.string(1.0 / 256, decimals: 7) == "0.0039062")
        #expect(FixedDecimalFormatter.string(3.0 / 256, decimals: 7) == "0.0117188")
        #expect(FixedDecimalFormatter.string(-1.0 / 256, decimals: 7) == "-0.0039062")
        #expect(FixedDecimalFormatter.string(0.5, decimals: 0) == "0")
        #expect(FixedDecimalFormatter.string(1.5, decimals: 0) == "2")
        #expect(FixedDecimalFormatter.string(2.5, decimals: 0) == "2")
        #expect(FixedDecimalFormatter.string(0.125, decimals: 2) == "0.12")
        #expect(FixedDecimalFormatter.string(0.375, decimals: 2) == "0.38")
        var random = SplitMix64(seed: 13)
        for _ in 0..<20_000 {
            let value = Double(Int64.random(in: -(1 << 40)...(1 << 40), using: &random)) / Double(1 << Int.random(in: 1...40, using: &random))
            let decimals = Int.random(in: 0...9, using: &random)
            #expect(FixedDecimalFormatter.string(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value)")
        }
    }

    @Test("every magnitude and every number of decimals matches printf")
    func everyMagnitude() {
        var random = SplitMix64(seed: 17)
        var mismatches: [(Double, Int)] = []
        for _ in 0..<100_000 {
            let value = Double(sign: Bool.random(using: &random) ? .minus : .plus,
                               exponent: Int.random(in: -40...1023, using: &random),
                               significand: Double.random(in: 1..<2, using: &random))
            let decimals = Int.random(in: 0...FixedDecimalFormatter.maximumDecimals, using: &random)
            if FixedDecimalFormatter.string(value, decimals: decimals) != Self.reference(value, decimals: decimals) {
                mismatches.append((value, decimals))
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(5))")
        for value in [Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, 9_007_199_254_740_994,
                      4_503_599_627_370_495.5, 1e15 + 0.3, 123_456_789.123_456_75, Double.leastNonzeroMagnitude] {
            for decimals in [0, 3, 7, 15] {
                #expect(FixedDecimalFormatter.string(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value) \(decimals)")
            }
        }
    }

    @Test("a value that rounds to zero has no minus sign")
    func negativeZero() {
        #expect(FixedDecimalFormatter.string(-0.0, decimals: 7) == "0.0000000")
        #expect(FixedDecimalFormatter.string(-0.00000004, decimals: 7) == "0.0000000")
        #expect(FixedDecimalFormatter.string(-0.00000006, decimals: 7) == "-0.0000001")
        #expect(FixedDecimalFormatter.string(-0.4, decimals: 0) == "0")
    }

    @Test("trimming drops trailing zeros and a bare point", arguments: [
        (12.5, "12.5"), (3.0, "3"), (0.0004, "0"), (0.0005, "0.001"), (-2.25, "-2.25"), (359.9996, "360"), (1e20, "100000000000000000000"),
    ])
    func trimming(value: Double, expected: String) {
        #expect(FixedDecimalFormatter.string(value, decimals: 3, trimmingTrailingZeros: true) == expected)
    }

    @Test("decimals outside 0...17 are clamped; non-finite values are spelled as printf does")
    func edges() {
        #expect(FixedDecimalFormatter.string(1.25, decimals: -3) == "1")
        #expect(FixedDecimalFormatter.string(0.1, decimals: 40) == Self.reference(0.1, decimals: 17))
        #expect(FixedDecimalFormatter.string(.nan, decimals: 7) == "nan")
        #expect(FixedDecimalFormatter.string(.infinity, decimals: 7) == "inf")
        #expect(FixedDecimalFormatter.string(-.infinity, decimals: 7) == "-inf")
        #expect(FixedDecimalFormatter.string(-180, decimals: 7) == "-180.0000000")
        #expect(FixedDecimalFormatter.string(179.99999996, decimals: 7) == "180.0000000")
    }
}
