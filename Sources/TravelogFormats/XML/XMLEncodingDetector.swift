/// Finds a document's encoding from its first bytes (XML 1.0 Appendix F): a byte-order mark, the
/// byte pattern of `<` in UTF-16, else the `encoding` of the XML declaration (default UTF-8).
struct XMLEncodingDetector {
    /// What the first bytes say.
    struct Detection: Equatable {
        var encoding: XMLEncoding
        /// Length of the byte-order mark to skip, in bytes.
        var byteOrderMarkBytes: Int
    }

    /// Failure to name a readable encoding: `name` declared at byte `offset`.
    struct Unsupported: Error {
        var name: String
        var offset: Int
    }

    /// How many bytes detection would like to see (the XML declaration fits well within).
    static let preferredPrefixBytes = 1024

    /// Whether `prefix` is enough to decide (or the input is at its end).
    static func isSufficient(_ prefix: [UInt8]) -> Bool {
        if prefix.count >= preferredPrefixBytes { return true }
        if prefix.count < 4 { return false }
        if let first = prefix.first, first == 0 || first == 0xFE || first == 0xFF { return true }
        var index = 0
        while index < prefix.count, isWhitespace(prefix[index]) { index += 1 }
        let marker = Array("<?xml".utf8)
        let seen = min(prefix.count - index, marker.count)
        if prefix.count - index <= marker.count, Array(prefix[index..<index + seen]) == Array(marker[..<seen]) {
            return false  // possibly the start of a declaration, or only whitespace so far
        }
        guard let start = declarationStart(prefix) else { return true }
        return prefix[start...].indices.contains {
            $0 + 1 < prefix.count && prefix[$0] == UInt8(ascii: "?") && prefix[$0 + 1] == UInt8(ascii: ">")
        }
    }

    /// Decides the encoding from the first bytes of the input.
    /// - Throws: `Unsupported` for a BOM or declaration naming an encoding this parser does not read.
    static func detect(_ prefix: [UInt8]) throws(Unsupported) -> Detection {
        let b = prefix + [0, 0, 0, 0]
        switch (b[0], b[1], b[2], b[3]) {
        case (0x00, 0x00, 0xFE, 0xFF), (0xFF, 0xFE, 0x00, 0x00):
            throw Unsupported(name: "UTF-32", offset: 0)
        case (0xEF, 0xBB, 0xBF, _): return Detection(encoding: .utf8, byteOrderMarkBytes: 3)
        case (0xFF, 0xFE, _, _): return Detection(encoding: .utf16LittleEndian, byteOrderMarkBytes: 2)
        case (0xFE, 0xFF, _, _): return Detection(encoding: .utf16BigEndian, byteOrderMarkBytes: 2)
        case (let x, 0x00, let y, 0x00) where x != 0 && x < 0x80 && y != 0 && y < 0x80:
            return Detection(encoding: .utf16LittleEndian, byteOrderMarkBytes: 0)
        case (0x00, let x, 0x00, let y) where x != 0 && x < 0x80 && y != 0 && y < 0x80:
            return Detection(encoding: .utf16BigEndian, byteOrderMarkBytes: 0)
        default:
            break
        }
        guard let (name, offset) = declaredEncoding(prefix) else {
            return Detection(encoding: .utf8, byteOrderMarkBytes: 0)
        }
        guard let encoding = XMLEncoding(declaredName: name) else { throw Unsupported(name: name, offset: offset) }
        return Detection(encoding: encoding, byteOrderMarkBytes: 0)
    }

    /// The index of `<?xml` followed by whitespace, after optional leading whitespace.
    private static func declarationStart(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        let marker = Array("<?xml".utf8)
        guard index + marker.count < bytes.count,
              Array(bytes[index..<index + marker.count]) == marker,
              isWhitespace(bytes[index + marker.count])
        else { return nil }
        return index
    }

    /// The value of the `encoding` pseudo-attribute of the XML declaration and its byte offset.
    private static func declaredEncoding(_ bytes: [UInt8]) -> (String, Int)? {
        guard let start = declarationStart(bytes) else { return nil }
        var end = start
        while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
        let key = Array("encoding".utf8)
        var index = start + 5
        while index + key.count <= end {
            defer { index += 1 }
            guard isWhitespace(bytes[index - 1]), Array(bytes[index..<index + key.count]) == key else { continue }
            var cursor = index + key.count
            while cursor < end, isWhitespace(bytes[cursor]) { cursor += 1 }
            guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { return nil }
            cursor += 1
            while cursor < end, isWhitespace(bytes[cursor]) { cursor += 1 }
            guard cursor < end, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            var valueEnd = valueStart
            while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
            return (String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self), valueStart)
        }
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
