/// One part of a `multipart/form-data` body (RFC 7578 §4): a form field or an uploaded file, with
/// its content as a stream that ends at the next boundary. Made by `MultipartFormReader.nextPart()`;
/// readable until the next part is asked for.
public struct MultipartPart {
    /// The part's position in the body (1-based).
    public let number: Int
    /// The field's name (`Content-Disposition: form-data; name="…"`, RFC 7578 §4.2).
    public let name: String
    /// The file name the client gave (`filename`, or `filename*` decoded), `nil` for a plain field.
    /// As RFC 7578 §4.2 warns, it is a hint (for messages and the format), never a path to use.
    public let filename: String?
    /// The part's `Content-Type` as sent (`application/gpx+xml`), `nil` when absent (RFC 7578 §4.4:
    /// text/plain for a field, application/octet-stream for a file).
    public let contentType: String?
    /// Every header line of the part, in order, names as sent.
    public let headers: [(name: String, value: String)]
    /// The part's content, streamed from the body: ends at the next boundary.
    public var content: MultipartPartByteSource
    /// Where the content starts in the body (0-based): with the count of bytes `content` hands
    /// out, the content's byte range, to read it again from the body itself instead of a copy.
    public let contentByteOffset: Int

    init(number: Int, headers: [(name: String, value: String)], contentByteOffset: Int,
         reader: MultipartFormReader) throws(FormatError) {
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name }?.value
        }
        guard let disposition = header("content-disposition").map(HeaderParameters.init(parsing:)),
              disposition.value == "form-data", let name = disposition["name"] else {
            throw reader.error(.missingContentDisposition, at: reader.start)
        }
        self.number = number
        self.name = name
        self.filename = disposition.fileName
        self.contentType = header("content-type")
        self.headers = headers
        self.content = MultipartPartByteSource(reader: reader, partNumber: number)
        self.contentByteOffset = contentByteOffset
    }

    /// The whole content as text, for a small field (a `device` name, a token).
    /// - Parameter limitBytes: the longest content accepted.
    /// - Throws: `FormatError.multipart` when the content is longer than `limitBytes` or not UTF-8.
    public mutating func readText(limitBytes: Int = 64 * 1024) throws(FormatError) -> String {
        let bytes = try content.readBytes(upTo: limitBytes + 1)
        guard bytes.count <= limitBytes else {
            throw content.reader.error(.fieldTooLong(name: name, limitBytes: limitBytes), at: content.reader.start)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw content.reader.error(.fieldNotUTF8(name: name), at: content.reader.start)
        }
        return text
    }
}

/// The content of one `MultipartPart`: the body's bytes up to the next boundary, without the CRLF
/// that precedes it (RFC 2046 §5.1.1). Ends (reads 0) at that boundary, and for good once a later
/// part has been asked for.
public struct MultipartPartByteSource: ByteSource {
    let reader: MultipartFormReader
    let partNumber: Int

    /// Unknown: a part's length is only known at its boundary.
    public var totalByteCount: Int? { nil }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        try reader.readContent(ofPart: partNumber, into: buffer)
    }
}
