import Testing
import TravelogCLI

@Suite("Splitting a byte stream into lines")
struct LineSplitterTests {
    static func split(_ text: String, blockSize: Int) -> [String] {
        var splitter = LineSplitter(), lines: [String] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + blockSize, bytes.count)
            bytes[start..<end].withUnsafeBufferPointer { block in
                splitter.consume(block) { lines.append(String(decoding: $0, as: UTF8.self)) }
            }
            start = end
        }
        splitter.finish { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    @Test("lines come out whole whatever the block size", arguments: [1, 2, 3, 7, 64, 4096])
    func blockSizes(blockSize: Int) {
        let text = "0 0 1 1\n\nlong line with words\n12 34 56 78\nno newline at the end"
        #expect(Self.split(text, blockSize: blockSize)
                == ["0 0 1 1", "", "long line with words", "12 34 56 78", "no newline at the end"])
    }

    @Test("a final newline does not make an empty last line")
    func finalNewline() {
        #expect(Self.split("a\nb\n", blockSize: 3) == ["a", "b"])
        #expect(Self.split("", blockSize: 3) == [])
    }
}
