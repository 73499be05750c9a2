import Testing
import TravelogFormats

@Suite("FormParameters: query strings and form bodies")
struct FormParametersTests {
    static func pairs(_ parameters: FormParameters) -> [String] {
        parameters.map { "\($0.name)=\($0.value)" }
    }

    @Test("pairs keep their order and repeats; + is a space; escapes decode in names and values")
    func decodes() throws {
        let parameters = try FormParameters(query: "id=42&timestamp=2014-06-04+09%3a10%3A11&cell=1&cell=2&na%6De=%C3%A9t%C3%A9")
        #expect(Self.pairs(parameters) == ["id=42", "timestamp=2014-06-04 09:10:11", "cell=1", "cell=2", "name=été"])
        #expect(parameters["cell"] == "2")
        #expect(parameters.values(named: "cell") == ["1", "2"])
        #expect(parameters["absent"] == nil)
    }

    @Test("empty pieces are dropped, a name without '=' has an empty value, only the first '=' splits")
    func pieces() throws {
        let parameters = try FormParameters(query: "?&a&&b=&c=x=y&=v&")
        #expect(Self.pairs(parameters) == ["a=", "b=", "c=x=y", "=v"])
        #expect(try FormParameters(query: "").parameters.isEmpty)
        #expect(try FormParameters(query: "?").parameters.isEmpty)
    }

    @Test("an escaped '&', '=' or '+' is data, not syntax")
    func escapedSyntax() throws {
        let parameters = try FormParameters(query: "q=a%26b%3Dc%2Bd")
        #expect(Self.pairs(parameters) == ["q=a&b=c+d"])
    }

    @Test("a '%' without two hex digits is an error at the byte offset of the '%'", arguments: [
        ("lat=5%", 5), ("lat=5%4", 5), ("lat=5%zz", 5), ("a=1&b%g0=2", 5), ("a=%41%", 5), ("%%41=1", 0),
    ])
    func malformedEscape(query: String, offset: Int) {
        #expect(throws: IngestError.malformedEncoding(offset: offset)) { try FormParameters(query: query) }
    }

    @Test("decoded bytes that are not UTF-8 are an error at the escape that starts the bad sequence")
    func invalidUTF8() {
        #expect(throws: IngestError.malformedEncoding(offset: 6)) { try FormParameters(query: "desc=a%FFb") }
        // A lead byte of a two-byte sequence followed by an ASCII letter.
        #expect(throws: IngestError.malformedEncoding(offset: 2)) { try FormParameters(query: "d=%C3x") }
        let raw: [UInt8] = Array("d=ok&e=".utf8) + [0xC0, 0x80]
        #expect(throws: IngestError.malformedEncoding(offset: 7)) { try FormParameters(encoded: raw) }
    }

    @Test("a request's body is read after its query when it is a form or has no content type")
    func requestBody() throws {
        let body = Array("lat=1&id=body".utf8)
        let form = try FormParameters(query: "id=query", body: body,
                                      contentType: "Application/x-www-form-urlencoded; charset=UTF-8")
        #expect(Self.pairs(form) == ["id=query", "lat=1", "id=body"])
        #expect(form["id"] == "body")
        let untyped = try FormParameters(query: "", body: body, contentType: nil)
        #expect(Self.pairs(untyped) == ["lat=1", "id=body"])
        let text = try FormParameters(query: "id=query", body: body, contentType: "text/plain")
        #expect(Self.pairs(text) == ["id=query"])
    }

    @Test("the media type of a Content-Type header", arguments: [
        ("application/json", "application/json"), (" Application/JSON ; charset=utf-8", "application/json"),
        ("", nil), ("  ; charset=utf-8", nil),
    ] as [(String, String?)])
    func mediaType(header: String, expected: String?) {
        #expect(FormParameters.mediaType(of: header) == expected)
    }
}
