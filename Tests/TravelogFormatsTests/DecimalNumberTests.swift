import Foundation
import Testing
import TravelogFormats

@Suite("Decimal numbers: the one decimal reader")
struct DecimalNumberTests {
    @Test("decimal forms are read", arguments: [
        ("0", 0.0), ("-0", -0.0), ("+1", 1.0), ("1.", 1.0), (".5", 0.5), ("-.5", -0.5), ("40.6413", 40.6413),
        ("1e3", 1000.0), ("1E-3", 0.001), ("20003931.4586", 20003931.4586), ("0.000000000000001", 1e-15),
        ("123456789012345678901234567890", 123456789012345678901234567890.0), ("1e400", Double.infinity),
        ("-179.99999999999999999999", -180.0),
    ])
    func reads(text: String, expected: Double) throws {
        let value = try #require(DecimalNumber.parse(text))
        #expect(value == expected)
        #expect(value.sign == expected.sign)
    }

    @Test("anything else is rejected", arguments: ["", "-", ".", "e5", "1e", "1e+", "nan", "inf", "0x1p3", "1,5", "12a", "40d30'", "1 2", "--1"])
    func rejects(text: String) {
        #expect(DecimalNumber.parse(text) == nil)
    }

    @Test("random numbers round exactly as strtod rounds them")
    func matchesStrtod() throws {
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let digits = String(state >> 1).prefix(Int(state % 20) + 1)
            let point = Int((state >> 40) % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if state & 1 == 1 { text = "-" + text }
            if state & 2 == 2 { text += "e\(Int((state >> 50) % 60) - 30)" }
            #expect(DecimalNumber.parse(text) == strtod(text, nil), "\(text)")
        }
    }
}
