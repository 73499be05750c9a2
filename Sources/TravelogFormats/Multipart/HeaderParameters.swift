/// A header value split into its main value and its `; name=value` parameters, as in
/// `Content-Type: multipart/form-data; boundary="a b"` and
/// `Content-Disposition: form-data; name="file"; filename="ride.gpx"` (RFC 9110 §5.6.6, quoted
/// strings §5.6.4; RFC 6266 §4.1 for `filename`, RFC 8187 for `filename*`).
struct HeaderParameters: Sendable {
    /// The value before the first `;`, trimmed and lower-cased (`multipart/form-data`).
    let value: String
    /// The parameters in order, names lower-cased, values unquoted.
    let parameters: [(name: String, value: String)]

    /// The first parameter named `name` (case-insensitive).
    subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return parameters.first { $0.name == lowered }?.value
    }

    /// Parses `value; name=token; name="quoted \" string"`. Lenient as browsers need: a backslash
    /// escapes only `"` and `\` (Windows paths in old browsers' `filename` stay intact), and a
    /// parameter without `=` is ignored.
    init(parsing header: String) {
        var characters = Substring(header)
        let main = characters.prefix { $0 != ";" }
        value = main.trimmingWhitespace().lowercased()
        characters = characters.dropFirst(main.count)
        var parameters: [(name: String, value: String)] = []
        while characters.first == ";" {
            characters = characters.dropFirst().drop { $0 == " " || $0 == "\t" }
            let name = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(name.count)
            guard characters.first == "=" else { continue }
            characters = characters.dropFirst().drop { $0 == " " || $0 == "\t" }
            var parameterValue = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\", let next = characters.first, next == "\"" || next == "\\" {
                        parameterValue.append(next)
                        characters = characters.dropFirst()
                    } else {
                        parameterValue.append(character)
                    }
                }
                characters = characters.dropFirst()  // the closing quote
                characters = characters.drop { $0 != ";" }
            } else {
                let token = characters.prefix { $0 != ";" }
                parameterValue = String(token.trimmingWhitespace())
                characters = characters.dropFirst(token.count)
            }
            parameters.append((String(name.trimmingWhitespace()).lowercased(), parameterValue))
        }
        self.parameters = parameters
    }

    /// `filename*` decoded (RFC 8187: `UTF-8''%e2%82%ac.gpx`) when present and in UTF-8, else
    /// `filename`.
    var fileName: String? {
        if let extended = self["filename*"], let decoded = Self.decodeExtendedValue(extended) { return decoded }
        return self["filename"]
    }

    /// Decodes RFC 8187's `charset'language'percent-encoded` when the charset is UTF-8.
    static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        var bytes: [UInt8] = []
        var utf8 = pieces[2].utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
                      let low = hexValue(utf8[utf8.index(after: utf8.startIndex)]) else { return nil }
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Substring {
    /// Without HTTP's optional whitespace (spaces and tabs) at either end: a header value's or a
    /// parameter's, as RFC 9110 § 5.6.3 has it.
    public func trimmingWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
