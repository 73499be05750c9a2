import Foundation
import Testing
import TravelogFormats

@Suite("Fixed decimals keeping the sign of zero, exactly as printf's %.*f writes them")
struct FixedDecimalPrintfTests {
    @Test("special values print as GeodSolve prints them", arguments: [
        (0.0, 14, "0.00000000000000"), (-0.0, 14, "-0.00000000000000"), (-1e-20, 14, "-0.00000000000000"),
        (180.0, 14, "180.00000000000000"), (-180.0, 14, "-180.00000000000000"), (20003931.458625447, 9, "20003931.458625447"),
        (0.5, 0, "0"), (1.5, 0, "2"), (2.5, 0, "2"), (-2.5, 0, "-2"), (0.000030517578125, 14, "0.00003051757812"),
        (Double.nan, 9, "nan"), (Double.infinity, 9, "inf"), (-Double.infinity, 9, "-inf"),
        (Double.leastNonzeroMagnitude, 17, "0.00000000000000000"),
    ])
    func specialValues(value: Double, digits: Int, expected: String) {
        // Ties round to even on the exact binary value (2.5 → 2; 2⁻¹⁵ at 14 digits ends …812|5 → …812).
        #expect(FixedDecimalFormatter.string(value, decimals: digits, keepingSignOfZero: true) == expected)
    }

    @Test("values beyond 64 bits of digits are exact too", arguments: [1.8e19, -1e300, Double.greatestFiniteMagnitude, 123456.75])
    func largeValues(value: Double) {
        #expect(FixedDecimalFormatter.string(value, decimals: 17, keepingSignOfZero: true) == String(format: "%.17f", value))
        #expect(FixedDecimalFormatter.string(value, decimals: 2, keepingSignOfZero: true) == String(format: "%.2f", value))
    }

    @Test("random values of every magnitude match the C library", arguments: [0, 3, 9, 14, 17])
    func matchesCLibrary(digits: Int) {
        var state: UInt64 = 0x1234_5678 &+ UInt64(digits)
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let bits = state
            // A random significand scaled over magnitudes from 1e-22 to 1e22, both signs.
            let magnitude = Double(bits >> 11) / Double(1 << 53) * pow(10, Double(Int(bits & 0x3F) % 45 - 22))
            let value = bits & 0x40 == 0 ? magnitude : -magnitude
            #expect(FixedDecimalFormatter.string(value, decimals: digits, keepingSignOfZero: true) == String(format: "%.\(digits)f", value))
        }
    }

    @Test("appending keeps what is already in the buffer")
    func appends() {
        var bytes = Array("x=".utf8)
        FixedDecimalFormatter.append(-3.25, decimals: 1, keepingSignOfZero: true, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x=-3.2")
    }
}
