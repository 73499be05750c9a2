import Testing
import TravelogFormats

@Suite("XML bytes")
struct XMLBytesTests {
    /// Runs `body` on the text of `<v>…</v>`, as a reader reads it at the end element.
    private func withText<Result>(_ text: String, _ body: (XMLBytes) -> Result) throws -> Result {
        let parser = try XMLPullParser(bytes: Array("<v>\(text)</v>".utf8))
        while let event = try parser.next() {
            if event == .endElement { return body(parser.text) }
        }
        Issue.record("no end element")
        return body(.empty)
    }

    @Test("decimal numbers parse to the correctly rounded double", arguments: [
        "47.3769123", "-122.0841", "8.5417456", "0", "-0.0", "1614.678", "1e5", "2.5E-3", "+3.25", ".5", "5.",
        "0.1", "0.30000000000000004", "123456789012345678901234567890", "9007199254740993", "1.7976931348623157e308",
        "4.9e-324", "0.000000000000000000000000000001", "00012.50", "3.14159265358979323846264338327950288",
    ])
    func decimals(text: String) throws {
        let parsed = try withText(text) { $0.parseDouble() }
        #expect(parsed == Double(text))
        #expect(parsed?.sign == Double(text)?.sign)
    }

    @Test("random decimals of up to 20 digits parse exactly as Swift's own parser does")
    func randomDecimals() throws {
        var state: UInt64 = 0x5EED
        func random(_ bound: UInt64) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % bound)
        }
        for _ in 0..<2000 {
            let digits = String((0..<(1 + random(20))).map { _ in Character(String(random(10))) })
            let point = random(UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if random(2) == 0 { text = "-" + text }
            if random(4) == 0 { text += "e\(random(40) - 20)" }
            let parsed = try withText(text) { $0.parseDouble() }
            #expect(parsed == Double(text), "\(text)")
        }
    }

    @Test("surrounding whitespace is ignored")
    func whitespace() throws {
        #expect(try withText("\n   12.5 \t") { $0.parseDouble() } == 12.5)
        #expect(try withText(" 72\n") { $0.parseInteger() } == 72)
    }

    @Test("anything but a finite decimal number is refused", arguments: [
        "", " ", "-", "+", ".", "1.2.3", "1e", "1e+", "e5", "nan", "NaN", "inf", "INF", "0x10", "1,5", "12abc",
        "+-1", "1 2", "1e400", "--1",
    ])
    func refused(text: String) throws {
        #expect(try withText(text) { $0.parseDouble() } == nil)
    }

    @Test("integers parse within Int, sign and whitespace included", arguments: [
        ("120", 120), ("-5", -5), ("+7", 7), ("007", 7), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ])
    func integers(text: String, value: Int) throws {
        #expect(try withText(text) { $0.parseInteger() } == value)
    }

    @Test("non-integers and overflow are refused", arguments: ["", "-", "1.0", "1e3", "9223372036854775808", "-9223372036854775809", "12 3", "x"])
    func refusedIntegers(text: String) throws {
        #expect(try withText(text) { $0.parseInteger() } == nil)
    }

    @Test("comparison with a literal is exact: length and every byte")
    func literalComparison() throws {
        try withText("trkpt") { bytes in
            #expect(bytes == "trkpt")
            #expect(bytes != "trkp")
            #expect(bytes != "trkptx")
            #expect(bytes != "trkPt")
            #expect(bytes != "")
        }
        try withText("a-long-name-over-eight-bytes") { bytes in
            #expect(bytes == "a-long-name-over-eight-bytes")
            #expect(bytes != "a-long-name-over-eight-bytez")
        }
        try withText("é") { bytes in
            #expect(bytes == "é")
            #expect(bytes.count == 2)
        }
        try withText("") { bytes in
            #expect(bytes == "")
            #expect(bytes.isEmpty)
        }
    }

    @Test("trimming removes only XML whitespace at both ends")
    func trimming() throws {
        try withText(" \t\r\n a b \n") { bytes in
            #expect(bytes.trimmed == "a b")
        }
    }
}
