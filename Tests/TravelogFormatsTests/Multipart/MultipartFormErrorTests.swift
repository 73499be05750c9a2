import Testing
import TravelogFormats

@Suite("MultipartFormReader: bodies cut short or malformed, and the Content-Type's boundary")
struct MultipartFormErrorTests {
    static func error(_ body: [UInt8], boundary: String = "b", chunkBytes: Int = .max) -> MultipartError? {
        do {
            _ = try MultipartTestBody.readAll(body, boundary: boundary, chunkBytes: chunkBytes)
            return nil
        } catch {
            if case .multipart(let multipart) = error { return multipart }
            Issue.record("expected a multipart error, got \(error)")
            return nil
        }
    }

    @Test("a body cut inside its second part: the closing boundary is missing, at the end of the body",
          arguments: [1, 3, 1000])
    func missingClosingBoundary(chunkBytes: Int) {
        let body = MultipartTestBody.make([.field("device", "phone"), .file("file", filename: "a.gpx", type: "x", Array("<gpx>".utf8))],
                                          boundary: "b", closing: false)
        #expect(Self.error(body, chunkBytes: chunkBytes) == MultipartError(.missingClosingBoundary, byteOffset: body.count, partNumber: 2))
    }

    @Test("a body cut right after a boundary line, or inside a header block, misses its closing boundary too")
    func cutAtBoundaryOrHeaders() {
        #expect(Self.error(Array("--b".utf8))?.kind == .missingClosingBoundary)
        #expect(Self.error(Array("--b\r\nContent-Disposition: form-da".utf8))?.kind == .missingClosingBoundary)
    }

    @Test("a body without any boundary line")
    func missingFirstBoundary() {
        let body = Array("name=value&other=1".utf8)
        #expect(Self.error(body) == MultipartError(.missingFirstBoundary, byteOffset: body.count))
        #expect(Self.error(Array("--other\r\n".utf8), boundary: "b")?.kind == .missingFirstBoundary)
    }

    @Test("a header block longer than the limit")
    func headerBlockTooLong() throws {
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"\(String(repeating: "n", count: 20_000))\"\r\n\r\nx\r\n--b--".utf8)
        #expect(Self.error(body, chunkBytes: 100) == MultipartError(.headerBlockTooLong(limitBytes: 16 * 1024), byteOffset: 5, partNumber: 1))
    }

    @Test("a header line without a colon, and a boundary followed by something else than CRLF or --")
    func malformed() {
        #expect(Self.error(Array("--b\r\nnot a header\r\n\r\nx\r\n--b--".utf8))
                == MultipartError(.malformedHeaderLine("not a header"), byteOffset: 5, partNumber: 1))
        #expect(Self.error(Array("--b\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--bc\r\n".utf8))
                == MultipartError(.unexpectedAfterBoundary(found: "c\\x0d\\x0a"), byteOffset: 53, partNumber: 1))
    }

    @Test("the boundary is read from the Content-Type, quoted or not, whatever the case and the other parameters",
          arguments: [
              ("multipart/form-data; boundary=----WebKitFormBoundaryABC", "----WebKitFormBoundaryABC"),
              ("Multipart/Form-Data; charset=utf-8; BOUNDARY=\"a b:c\"", "a b:c"),
              ("multipart/form-data;boundary=\"------------------------d74496d66958873e\"", "------------------------d74496d66958873e"),
          ])
    func boundaryFromContentType(contentType: String, boundary: String) throws {
        #expect(try MultipartFormReader.boundary(fromContentType: contentType) == boundary)
    }

    @Test("a Content-Type that is not multipart/form-data, without boundary, or with an invalid one")
    func badContentTypes() {
        func kind(_ contentType: String) -> MultipartError.Kind? {
            do {
                _ = try MultipartFormReader.boundary(fromContentType: contentType)
                return nil
            } catch {
                if case .multipart(let multipart) = error { return multipart.kind }
                return nil
            }
        }
        #expect(kind("application/gpx+xml") == .notMultipartFormData(found: "application/gpx+xml"))
        #expect(kind("multipart/form-data") == .missingBoundary)
        #expect(kind("multipart/form-data; boundary=\"\"") == .invalidBoundary(""))
        #expect(kind("multipart/form-data; boundary=\(String(repeating: "x", count: 71))") == .invalidBoundary(String(repeating: "x", count: 71)))
        #expect(kind("multipart/form-data; boundary=\"a;b\"") == .invalidBoundary("a;b"))
    }

    @Test("file names: escaped quotes, UTF-8, RFC 8187 filename* preferred, a Windows path left intact")
    func fileNames() throws {
        let dispositions = [
            #"form-data; name="f"; filename="say \"hi\".gpx""#,
            #"form-data; name="f"; filename="Zürich 東京.kml""#,
            #"form-data; name="f"; filename="fallback.gpx"; filename*=UTF-8''%E2%82%AC%20rates.gpx"#,
            #"form-data; name="f"; filename="C:\Users\ana\ride.gpx""#,
        ]
        let body = MultipartTestBody.make(dispositions.map { .init(headers: ["content-disposition: \($0)"], content: []) }, boundary: "b")
        let names = try MultipartTestBody.readAll(body, boundary: "b").map(\.filename)
        #expect(names == [#"say "hi".gpx"#, "Zürich 東京.kml", "€ rates.gpx", #"C:\Users\ana\ride.gpx"#])
    }
}
