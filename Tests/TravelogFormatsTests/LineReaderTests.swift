import Testing
import TravelogFormats

@Suite("LineReader")
struct LineReaderTests {
    static func lines(_ bytes: [UInt8], chunk: Int = .max) throws -> [(String, Int, Int)] {
        var reader = LineReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunk), blockSizeBytes: 16)
        var result: [(String, Int, Int)] = []
        while let line = try reader.next() {
            result.append((String(decoding: line.bytes, as: UTF8.self), line.number, line.byteOffset))
        }
        return result
    }

    @Test("LF, CR LF and lone CR all end a line; a last line without terminator counts", arguments: [1, 2, 3, 7, 1000])
    func terminators(chunk: Int) throws {
        let result = try Self.lines(Array("a\nbb\r\nccc\rd".utf8), chunk: chunk)
        #expect(result.map(\.0) == ["a", "bb", "ccc", "d"])
        #expect(result.map(\.1) == [1, 2, 3, 4])
        #expect(result.map(\.2) == [0, 2, 6, 10])
    }

    @Test("terminators at block and chunk edges: CR LF split, empty lines, a CR at the very end", arguments: [1, 2, 5, 1000])
    func terminatorEdges(chunk: Int) throws {
        let text = "\r\n\r\nabcdefghijklmno\r\npqrstuvwxyz0123456789\n\nlast\r"
        let result = try Self.lines(Array(text.utf8), chunk: chunk)
        #expect(result.map(\.0) == ["", "", "abcdefghijklmno", "pqrstuvwxyz0123456789", "", "last"])
        #expect(result.map(\.2) == [0, 2, 4, 21, 43, 44])
    }

    @Test("empty lines are kept, an empty input has none")
    func emptyLines() throws {
        #expect(try Self.lines(Array("\n\nx\n".utf8)).map(\.0) == ["", "", "x"])
        #expect(try Self.lines([]).isEmpty)
    }

    @Test("a UTF-8 BOM is skipped and offsets still count it")
    func utf8BOM() throws {
        let result = try Self.lines([0xEF, 0xBB, 0xBF] + Array("ab\ncd".utf8))
        #expect(result.map(\.0) == ["ab", "cd"])
        #expect(result.map(\.2) == [3, 6])
    }

    @Test("UTF-16 LE and BE are transcoded, with offsets in the original bytes", arguments: [true, false])
    func utf16(littleEndian: Bool) throws {
        let text = "$GP,é\r\n😀x\n"
        let units = Array(text.utf16)
        var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in units {
            let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            bytes += littleEndian ? pair : pair.reversed()
        }
        for chunk in [1, 3, 5, 1000] {
            let result = try Self.lines(bytes, chunk: chunk)
            #expect(result.map(\.0) == ["$GP,é", "😀x"])
            #expect(result.map(\.2) == [2, 16])
        }
    }

    @Test("a truncated UTF-16 code unit is an error with its offset")
    func oddUTF16() {
        #expect(throws: FormatError.truncated(SourcePosition(byteOffset: 4, line: 1, column: 2),
                                              expected: "the second byte of a UTF-16 code unit")) {
            try Self.lines([0xFF, 0xFE, 0x41, 0x00, 0x42])
        }
    }
}

/// How much a reader asks for at each read (the free space of its block), noted in a shared log.
private struct RecordingByteSource: ByteSource {
    final class Log { var requestedBytes: [Int] = [] }
    var inner: MemoryByteSource
    let log = Log()

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        log.requestedBytes.append(buffer.count)
        return try inner.read(into: buffer)
    }

    var totalByteCount: Int? { inner.totalByteCount }
}

@Suite("LineReader's block")
struct LineReaderBlockTests {
    /// The reads a LineReader with a 64 KB block makes for `bytes`, and how many lines it gives.
    static func reads(_ bytes: [UInt8]) throws -> (requests: [Int], lines: Int) {
        let source = RecordingByteSource(inner: MemoryByteSource(bytes))
        var reader = LineReader(source: source, blockSizeBytes: 65_536)
        var lines = 0
        while try reader.next() != nil { lines += 1 }
        return (source.log.requestedBytes, lines)
    }

    @Test("a short input is read with a small block, not a block of blockSizeBytes")
    func shortInput() throws {
        let (requests, lines) = try Self.reads(Array("a,b\n1,2\n".utf8))
        #expect(lines == 2)
        #expect(requests.allSatisfy { $0 <= 4096 }, "\(requests)")
    }

    @Test("a long input doubles the block while the source fills it, up to blockSizeBytes; every line is read")
    func longInput() throws {
        let line = Array("52.5,13.4,2024-03-01T09:00:00Z\n".utf8)
        let bytes = Array(repeating: line, count: 20_000).flatMap { $0 }
        let (requests, lines) = try Self.reads(bytes)
        #expect(lines == 20_000)
        #expect((requests.max() ?? 0) > 32_768 && (requests.max() ?? 0) <= 65_536, "\(requests.prefix(12))")
        #expect(requests.count < 40, "\(requests.count) reads of \(bytes.count) bytes")
    }
}
