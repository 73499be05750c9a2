import Foundation
import Testing
import TravelogTestSupport
import TravelogFormats

@Suite("JSONParser: numbers, exactly")
struct JSONNumberTests {
    /// The value of one number read on its own.
    static func read(_ text: String) throws -> (double: Double, int64: Int64?) {
        var parser = JSONParser(text: text)
        #expect(try parser.next() == .number)
        return (parser.doubleValue, parser.int64Value)
    }

    static let integers: [(String, Int64)] = [
        ("0", 0), ("-0", 0), ("7", 7), ("-7", -7), ("525121303", 525_121_303), ("-1345095510", -1_345_095_510),
        ("1365986566860", 1_365_986_566_860),  // a millisecond timestamp
        ("9007199254740993", 9_007_199_254_740_993),  // 2^53 + 1: exact as Int64, rounded as Double
        ("9223372036854775807", .max), ("-9223372036854775808", .min),
        ("1.0", 1), ("-2.50e1", -25), ("1e2", 100), ("1E+2", 100), ("2500e-2", 25), ("0.0e5", 0),
        ("100000000000000000000e-2", 1_000_000_000_000_000_000),  // more than 19 digits, but integral
        ("12345678901234567890e-1", 1_234_567_890_123_456_789),
    ]

    @Test("an integral number is exact as Int64, and its Double is the nearest", arguments: integers)
    func integral(text: String, expected: Int64) throws {
        let value = try Self.read(text)
        #expect(value.int64 == expected)
        #expect(value.double == Double(text))
    }

    @Test("a number that is not an integer within Int64 has no Int64", arguments: [
        "0.5", "-1.25", "1e-1", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "123456789012345678901234567890", "1e19", "10000000000000000001e-1", "1.00000000000000000001",
    ])
    func notIntegral(text: String) throws {
        let value = try Self.read(text)
        #expect(value.int64 == nil)
        #expect(value.double == Double(text))
    }

    /// Texts whose correctly rounded Double Swift's own parser (the oracle) knows.
    static let doubles: [String] = [
        "0.1", "0.2", "0.3", "52.37888580984668", "13.332", "-2.5e-3", "3.141592653589793238462643383279",
        "1e22", "1e23", "8.98846567431158e307", "1.7976931348623157e308", "2.2250738585072014e-308",
        "2.2250738585072011e-308", "4.9e-324", "5e-324", "2.4703282292062328e-324",
        "9007199254740993", "9007199254740993.0", "18446744073709551616", "123456789012345678901234567890",
        "0.000000000000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
        "7.2057594037927933e16", "1e-1000", "123e-330", "0.9999999999999999444888487687421729788184165954589843749",
    ]

    @Test("a number's Double is correctly rounded", arguments: doubles)
    func correctlyRounded(text: String) throws {
        let expected = try #require(Double(text))
        #expect(try Self.read(text).double.bitPattern == expected.bitPattern)
    }

    @Test("negative zero stays negative, and underflow gives a signed zero")
    func signedZero() throws {
        #expect(try Self.read("-0").double.bitPattern == (-0.0).bitPattern)
        #expect(try Self.read("-0.0e7").double.bitPattern == (-0.0).bitPattern)
        #expect(try Self.read("-1e-400").double.bitPattern == (-0.0).bitPattern)
        #expect(try Self.read("1e-400").double.bitPattern == (0.0).bitPattern)
        #expect(try Self.read("0e99999999999999999999").double == 0)
    }

    @Test("a number beyond the largest Double is out of range", arguments: [
        "1e309", "-1e309", "1.7976931348623159e308", "1e99999999999999999999", "\(String(repeating: "9", count: 400))",
    ])
    func outOfRange(text: String) {
        #expect(syntaxError(text)?.reason == .numberOutOfRange)
    }

    @Test("every finite Double survives its shortest text and its 17-digit text (10 000 seeded)")
    func randomDoubles() throws {
        var generator = SplitMix64(seed: 20_240_301)
        for _ in 0..<10_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            #expect(try Self.read("\(value)").double.bitPattern == value.bitPattern, "\(value)")
            let long = String(format: "%.17g", value)
            #expect(try Self.read(long).double.bitPattern == value.bitPattern, "\(long)")
        }
    }

    @Test("random decimal texts round like Swift's parser (10 000 seeded)")
    func randomDecimals() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let digits = (0..<Int.random(in: 1...25, using: &generator)).map { _ in
                String(Int.random(in: 0...9, using: &generator))
            }.joined()
            let integerPart = digits.first == "0" ? "0" : digits
            let fraction = Bool.random(using: &generator)
                ? "." + String(digits.reversed()) : ""
            let exponent = Bool.random(using: &generator) ? "e\(Int.random(in: -340...310, using: &generator))" : ""
            let text = (Bool.random(using: &generator) ? "-" : "") + integerPart + fraction + exponent
            guard let expected = Double(text), expected.isFinite else { continue }
            #expect(try Self.read(text).double.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test("every Int64 is exact (10 000 seeded)")
    func randomIntegers() throws {
        var generator = SplitMix64(seed: 64)
        for _ in 0..<10_000 {
            let value = Int64(bitPattern: generator.next()) >> Int64.random(in: 0...63, using: &generator)
            let read = try Self.read("\(value)")
            #expect(read.int64 == value)
            #expect(read.double == Double(value))
        }
    }

    @Test("a number ends where its grammar ends, inside arrays and objects")
    func delimiters() throws {
        #expect(try tokens("[1,-2,3.5e1]") == [.arrayStart, .int(1), .int(-2), .int(35), .arrayEnd])
        #expect(try tokens(#"{"a":0}"#) == [.objectStart, .key("a"), .int(0), .objectEnd])
        #expect(try tokens("0 ") == [.int(0)])
    }
}
