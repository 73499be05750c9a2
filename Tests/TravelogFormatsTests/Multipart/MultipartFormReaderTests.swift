import Testing
import TravelogTestSupport
import TravelogFormats

@Suite("MultipartFormReader: parts of a multipart/form-data body, streamed (RFC 7578)")
struct MultipartFormReaderTests {
    static let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    static let gpx = Array(#"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="52.5" lon="13.4"/></trkseg></trk></gpx>"#.utf8)
    /// Content that tries hard to look like a boundary: CRLFs, dashes, the boundary without its CRLF.
    static let tricky = Array("\r\n\r\n--\r\n-\r\n--\(boundary.dropLast())\r\n\n--\(boundary)\r--\(boundary)-\r\n".utf8) + [0, 0xFF, 0x0D]
    static let parts: [MultipartTestBody.Part] = [
        .field("device", "Pixel 8 — Ana"),
        .file("file", filename: "ride.gpx", type: "application/gpx+xml", gpx),
        .file("file", filename: "odd.bin", type: "application/octet-stream", tricky),
    ]
    static let expected: [MultipartTestBody.ReadPart] = [
        .init(name: "device", filename: nil, contentType: nil, content: Array("Pixel 8 — Ana".utf8)),
        .init(name: "file", filename: "ride.gpx", contentType: "application/gpx+xml", content: gpx),
        .init(name: "file", filename: "odd.bin", contentType: "application/octet-stream", content: tricky),
    ]

    @Test("two files and a field come out part by part, with their names, file names and types")
    func twoFilesAndAField() throws {
        let body = MultipartTestBody.make(Self.parts, boundary: Self.boundary)
        #expect(try MultipartTestBody.readAll(body, boundary: Self.boundary) == Self.expected)
    }

    @Test("boundaries straddling every block edge: the body handed out 1 to 50 bytes at a time",
          arguments: Array(1...50))
    func everyBlockEdge(chunkBytes: Int) throws {
        let body = MultipartTestBody.make(Self.parts, boundary: Self.boundary, preamble: "This is the preamble.",
                                          epilogue: "This is the epilogue.")
        #expect(try MultipartTestBody.readAll(body, boundary: Self.boundary, chunkBytes: chunkBytes, readBytes: 3) == Self.expected)
    }

    @Test("the smallest read buffer (a header block's limit) with parts many times its size")
    func smallBuffer() throws {
        let large = ZipTestArchive.text(lines: 3000)
        let parts: [MultipartTestBody.Part] = [.file("a", filename: "a.csv", type: "text/csv", large), .field("b", "x")]
        let body = MultipartTestBody.make(parts, boundary: "b")
        let read = try MultipartTestBody.readAll(body, boundary: "b", chunkBytes: 1000, readBytes: 1, blockBytes: 1)
        #expect(read.map(\.content) == [large, Array("x".utf8)])
    }

    @Test("a part not read to its end is skipped when the next part is asked for; its source then reads nothing")
    func skipUnread() throws {
        let body = MultipartTestBody.make(Self.parts, boundary: Self.boundary)
        let reader = try MultipartFormReader(source: MemoryByteSource(body, maximumChunkBytes: 5), boundary: Self.boundary)
        var first = try #require(try reader.nextPart())
        #expect(try first.content.readBytes(upTo: 5) == Array("Pixel".utf8))
        _ = try #require(try reader.nextPart())  // the GPX, not read at all
        var third = try #require(try reader.nextPart())
        #expect(try first.content.readBytes(upTo: 5) == [], "a previous part reads nothing")
        #expect(try third.content.readAll(chunkBytes: 2) == Self.tricky)
        #expect(try reader.nextPart() == nil)
        #expect(try reader.nextPart() == nil, "the end stays the end")
    }

    @Test("CRLF details: only the CRLF before a boundary is removed; a bare LF boundary and padding after one")
    func crlfDetails() throws {
        let content = Array("line 1\r\nline 2\r\n".utf8)
        var body = Array("--b \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8)  // transport padding
        body += content + Array("\n--b\r\n".utf8)  // a bare LF does not start a boundary: content
        body += Array("\r\n--b\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--b--".utf8)  // empty, no final CRLF
        let read = try MultipartTestBody.readAll(body, boundary: "b", chunkBytes: 1)
        #expect(read.map(\.name) == ["a", "empty"])
        #expect(read.map(\.content) == [content + Array("\n--b\r\n".utf8), []])
    }

    @Test("a part with no header line at all is refused: RFC 7578 §4.2 requires Content-Disposition")
    func noHeaders() throws {
        let body = Array("--b\r\n\r\ncontent\r\n--b--\r\n".utf8)
        #expect(throws: FormatError.multipart(MultipartError(.missingContentDisposition, byteOffset: 7, partNumber: 1))) {
            try MultipartTestBody.readAll(body, boundary: "b")
        }
    }

    @Test("a plain field is read as text, within a limit")
    func textField() throws {
        let body = MultipartTestBody.make([.field("device", "phone"), .field("note", String(repeating: "x", count: 100))], boundary: "b")
        let reader = try MultipartFormReader(source: MemoryByteSource(body), boundary: "b")
        var device = try #require(try reader.nextPart())
        #expect(try device.readText() == "phone")
        var note = try #require(try reader.nextPart())
        do {
            _ = try note.readText(limitBytes: 99)
            Issue.record("a 100-byte field read within a 99-byte limit")
        } catch {
            guard case .multipart(let multipart) = error else { Issue.record("\(error)"); return }
            #expect(multipart.kind == .fieldTooLong(name: "note", limitBytes: 99))
            #expect(multipart.partNumber == 2)
        }
    }
}
