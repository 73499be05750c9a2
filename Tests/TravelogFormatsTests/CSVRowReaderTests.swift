import Testing
import TravelogFormats

@Suite("CSVRowReader")
struct CSVRowReaderTests {
    /// Every row's fields, read through chunks of `chunk` bytes and a 16-byte block.
    static func rows(_ text: String, chunk: Int = .max, maximumRowBytes: Int = 1 << 20) throws(FormatError) -> [[String]] {
        try rowsAndPositions(Array(text.utf8), chunk: chunk, maximumRowBytes: maximumRowBytes).map { $0.map(\.0) }
    }

    static func rowsAndPositions(_ bytes: [UInt8], chunk: Int = .max, maximumRowBytes: Int = 1 << 20)
        throws(FormatError) -> [[(String, SourcePosition)]] {
        var reader = CSVRowReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunk),
                                  maximumRowBytes: maximumRowBytes, blockSizeBytes: 16)
        var row = CSVRow()
        var result: [[(String, SourcePosition)]] = []
        while try reader.next(into: &row) {
            result.append((0..<row.count).map { (row.string($0), row.position(ofField: $0)) })
        }
        return result
    }

    @Test("RFC 4180: quoted separators, doubled quotes and line breaks inside quotes", arguments: [1, 2, 3, 5, 1000])
    func quoting(chunk: Int) throws {
        let text = "a,\"b,c\",\"d\"\"e\",\"multi\r\nline\"\r\nx,y,,\"\"\n"
        let rows = try Self.rowsAndPositions(Array(text.utf8), chunk: chunk)
        #expect(rows.map { $0.map(\.0) } == [["a", "b,c", "d\"e", "multi\nline"], ["x", "y", "", ""]])
        // The second row starts on line 3: the first spans lines 1 and 2.
        #expect(rows[0][1].1 == SourcePosition(byteOffset: 2, line: 1, column: 3))
        #expect(rows[0][3].1 == SourcePosition(byteOffset: 15, line: 1, column: 16))
        #expect(rows[1][0].1 == SourcePosition(byteOffset: 30, line: 3, column: 1))
        #expect(rows[1][3].1 == SourcePosition(byteOffset: 35, line: 3, column: 6))
    }

    @Test("the separator is the most frequent of comma, semicolon and tab outside quotes", arguments: [
        ("a,b,c", UInt8(ascii: ",")),
        ("a;b;c", UInt8(ascii: ";")),
        ("a\tb\tc", 0x09),
        ("a,b;c;d", UInt8(ascii: ";")),
        ("\"x,y,z\";b", UInt8(ascii: ";")),
        ("a,b;c", UInt8(ascii: ",")),
        ("single", UInt8(ascii: ",")),
    ])
    func separator(header: String, expected: UInt8) {
        #expect(CSVRowReader.detectSeparator(in: Array(header.utf8)) == expected)
    }

    @Test("rows use the separator of the header")
    func detectedSeparator() throws {
        #expect(try Self.rows("a;b\n1,5;2\n") == [["a", "b"], ["1,5", "2"]])
        #expect(try Self.rows("a\tb\n1 2\t\"x\ty\"\n") == [["a", "b"], ["1 2", "x\ty"]])
    }

    @Test("blank lines are skipped and a trailing separator makes an empty last field")
    func blankLinesAndTrailingSeparator() throws {
        let rows = try Self.rowsAndPositions(Array("a,b\n\n  \n1,\n".utf8))
        #expect(rows.map { $0.map(\.0) } == [["a", "b"], ["1", ""]])
        #expect(rows[1][1].1 == SourcePosition(byteOffset: 10, line: 4, column: 3))
    }

    @Test("spaces around quotes are ignored and a quote inside an unquoted field is a character")
    func leniencies() throws {
        #expect(try Self.rows("a, \"b\" ,c\n5'10\",x\n") == [["a", "b", "c"], ["5'10\"", "x"]])
    }

    @Test("CR LF, a BOM and UTF-16 read the same rows")
    func encodings() throws {
        let text = "lat,\"name\"\r\n1,\"é\r\nx\"\r\n"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        for bytes in [Array(text.utf8), [0xEF, 0xBB, 0xBF] + Array(text.utf8), utf16] {
            for chunk in [1, 3, 1000] {
                let rows = try Self.rowsAndPositions(bytes, chunk: chunk)
                #expect(rows.map { $0.map(\.0) } == [["lat", "name"], ["1", "é\nx"]])
            }
        }
    }

    @Test("a quote still open at the end of the input is truncated at the opening quote", arguments: [1, 4, 1000])
    func unterminatedQuote(chunk: Int) {
        #expect(throws: FormatError.truncated(SourcePosition(byteOffset: 6, line: 2, column: 3),
                                              expected: "a closing quote for the field that opens here")) {
            try Self.rows("a,b\n1,\"open\nstill open\n", chunk: chunk)
        }
    }

    @Test("text after a closing quote is an error at that byte")
    func textAfterClosingQuote() {
        #expect(throws: FormatError.unexpected(SourcePosition(byteOffset: 7, line: 2, column: 4),
                                               expected: "a separator or the end of the row after a closing quote",
                                               found: "'y'")) {
            try Self.rows("a,b\n\"x\"y,2\n")
        }
    }

    @Test("a row longer than the limit stops the reader instead of filling memory")
    func rowLimit() {
        let text = "a,b\n1,\"" + String(repeating: "long line\n", count: 20)
        #expect(throws: FormatError.unexpected(SourcePosition(byteOffset: 4, line: 2, column: 1),
                                               expected: "a row of at most 64 bytes (is a quote left open?)",
                                               found: "a longer row")) {
            try Self.rows(text, maximumRowBytes: 64)
        }
    }
}
