import Testing
import TravelogFormats

/// Issue 25, finding 6: a form's parts are counted, and each part says where its content lies in
/// the body, so that a server reads it there instead of keeping a copy.
@Suite("MultipartFormReader: a limit on parts, and where each part's content lies")
struct MultipartLimitTests {
    static func body(parts: Int) -> [UInt8] {
        MultipartTestBody.make((0..<parts).map { .file("file", filename: "\($0).csv", type: "text/csv", Array("part \($0)".utf8)) },
                               boundary: "b")
    }

    static func partCount(_ body: [UInt8], maximumParts: Int, chunkBytes: Int = .max) throws(FormatError) -> Int {
        let reader = try MultipartFormReader(source: MemoryByteSource(body, maximumChunkBytes: chunkBytes), boundary: "b",
                                             maximumParts: maximumParts)
        var count = 0
        while try reader.nextPart() != nil { count += 1 }
        return count
    }

    @Test("the part after the limit is refused, naming the limit; a form at the limit is read", arguments: [1, 7, 1000])
    func tooManyParts(chunkBytes: Int) throws {
        #expect(try Self.partCount(Self.body(parts: 4), maximumParts: 4, chunkBytes: chunkBytes) == 4)
        do {
            _ = try Self.partCount(Self.body(parts: 5), maximumParts: 4, chunkBytes: chunkBytes)
            Issue.record("a fifth part was read past a limit of 4")
        } catch {
            guard case .multipart(let multipart) = error else { Issue.record("expected a multipart error, got \(error)"); return }
            #expect(multipart.kind == .tooManyParts(limit: 4))
            #expect(multipart.partNumber == 4)
            #expect(multipart.description.contains("more than 4 parts"))
        }
    }

    @Test("each part's content offset and length give back its bytes from the body itself", arguments: [1, 5, 64 * 1024])
    func contentOffsets(chunkBytes: Int) throws {
        let contents: [[UInt8]] = [Array("<gpx/>".utf8), [], Array(repeating: 0x41, count: 70_000), Array("--b not a boundary".utf8)]
        let body = MultipartTestBody.make([.field("device", "watch")]
                                          + contents.enumerated().map { .file("file", filename: "\($0.offset)", type: "x", $0.element) },
                                          boundary: "b")
        let reader = try MultipartFormReader(source: MemoryByteSource(body, maximumChunkBytes: chunkBytes), boundary: "b")
        var found: [[UInt8]] = []
        while var part = try reader.nextPart() {
            let start = part.contentByteOffset
            let content = try part.content.readAll(chunkBytes: 4096)
            #expect(Array(body[start..<(start + content.count)]) == content)
            if part.filename != nil { found.append(Array(body[start..<(start + content.count)])) }
        }
        #expect(found == contents)
    }
}
