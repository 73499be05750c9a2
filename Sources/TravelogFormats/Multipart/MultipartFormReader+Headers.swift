extension MultipartFormReader {
    /// The `boundary` parameter of a `Content-Type: multipart/form-data; boundary=…` header value,
    /// quoted or not (RFC 7578 §4.1, RFC 2046 §5.1.1).
    /// - Throws: `FormatError.multipart` when the media type is not `multipart/form-data`, or the
    ///   boundary is missing or invalid.
    public static func boundary(fromContentType contentType: String) throws(FormatError) -> String {
        let header = HeaderParameters(parsing: contentType)
        guard header.value == "multipart/form-data" else {
            throw .multipart(MultipartError(.notMultipartFormData(found: header.value), byteOffset: 0))
        }
        guard let boundary = header["boundary"] else {
            throw .multipart(MultipartError(.missingBoundary, byteOffset: 0))
        }
        try validate(boundary: boundary)
        return boundary
    }

    /// RFC 2046 §5.1.1: 1 to 70 characters of `bchars`, not ending with a space.
    static func validate(boundary: String) throws(FormatError) {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.allSatisfy(allowed.contains), bytes.last != UInt8(ascii: " ") else {
            throw .multipart(MultipartError(.invalidBoundary(boundary), byteOffset: 0))
        }
    }

    /// After `--boundary`: reads `--` (the closing boundary: returns false) or optional transport
    /// padding and CRLF (a part follows: returns true).
    func readDelimiterLineEnd() throws(FormatError) -> Bool {
        var offset = 0  // from `start`, which `fill()` may move
        while true {
            guard start + offset + 1 < end else {
                guard try fill() else { throw error(.missingClosingBoundary, at: end) }
                continue
            }
            let byte = buffer[start + offset]
            if offset == 0 && byte == UInt8(ascii: "-") && buffer[start + 1] == UInt8(ascii: "-") {
                start += 2
                state = .finished
                return false
            }
            if (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) && offset < 256 {
                offset += 1
                continue
            }
            guard byte == UInt8(ascii: "\r") && buffer[start + offset + 1] == UInt8(ascii: "\n") else {
                let found = (start + offset)..<min(end, start + offset + 16)
                throw error(.unexpectedAfterBoundary(found: Self.printable(buffer[found])), at: start + offset)
            }
            start += offset + 2
            return true
        }
    }

    /// Reads header lines up to the blank line that ends them (RFC 2046 §5.1.1 `body-part`; RFC
    /// 5322 §2.2 syntax, obsolete folding accepted). Names keep their case; values are trimmed.
    func readHeaderBlock() throws(FormatError) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        var blockBytes = 0
        var searchFrom = 0  // from `start`: no CRLF starts before it
        while true {
            guard let lineEnd = findLineEnd(from: start + searchFrom) else {
                searchFrom = max(0, end - start - 1)
                if blockBytes + (end - start) > maximumHeaderBytes {
                    throw error(.headerBlockTooLong(limitBytes: maximumHeaderBytes), at: start)
                }
                guard try fill() else { throw error(.missingClosingBoundary, at: end) }
                continue
            }
            blockBytes += lineEnd - start + 2
            guard blockBytes <= maximumHeaderBytes else {
                throw error(.headerBlockTooLong(limitBytes: maximumHeaderBytes), at: start)
            }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<lineEnd]), as: UTF8.self)
            let lineStart = start
            start = lineEnd + 2
            searchFrom = 0
            if line.isEmpty { return headers }
            if line.first == " " || line.first == "\t", let last = headers.indices.last {
                headers[last].value += " " + String(Substring(line).trimmingWhitespace())
                continue
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line[..<colon].allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw error(.malformedHeaderLine(String(line.prefix(80))), at: lineStart)
            }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].trimmingWhitespace())))
        }
    }

    /// The index of the next CRLF in the unread bytes at or after `index`.
    private func findLineEnd(from index: Int) -> Int? {
        var candidate = index
        while candidate + 1 < end {
            if buffer[candidate] == UInt8(ascii: "\r") && buffer[candidate + 1] == UInt8(ascii: "\n") { return candidate }
            candidate += 1
        }
        return nil
    }

    /// Bytes for an error message: ASCII as is, others as `\xNN`.
    private static func printable(_ bytes: Slice<UnsafeMutableRawBufferPointer>) -> String {
        bytes.map { byte in
            if (32..<127).contains(byte) { return String(UnicodeScalar(byte)) }
            let hex = String(byte, radix: 16)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
