/// Text that comes from people (track and document names) written so that it cannot break the
/// document around it.
extension OutputBuffer {
    /// Appends `text` as XML 1.0 character data, valid in element content and in quoted attributes.
    ///
    /// `&`, `<`, `>` and `"` become entities; a carriage return becomes `&#13;` (a literal one would
    /// be turned into a line feed by every XML parser). Characters XML 1.0 cannot carry at all, even
    /// escaped (C0 controls other than tab and line feed, U+FFFE, U+FFFF), are replaced with U+FFFD.
    /// Source: XML 1.0 (Fifth Edition) §2.2 "Characters" and §2.4 "Character Data and Markup".
    func append(xmlEscaped text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": append("&amp;")
            case "<": append("&lt;")
            case ">": append("&gt;")
            case "\"": append("&quot;")
            case "\r": append("&#13;")
            case "\t", "\n": append(UInt8(scalar.value))
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                appendUTF8("\u{FFFD}")
            default: appendUTF8(scalar)
            }
        }
    }

    /// Appends `text` as the inside of a JSON string: `"` and `\` are escaped, control characters
    /// use their short escapes or `\u00XX`. Source: RFC 8259 §7 "Strings".
    func append(jsonEscaped text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            case "\u{08}": append("\\b")
            case "\u{0C}": append("\\f")
            case _ where scalar.value < 0x20:
                append("\\u00")
                append(Self.hexDigit(scalar.value >> 4))
                append(Self.hexDigit(scalar.value & 0xF))
            default: appendUTF8(scalar)
            }
        }
    }

    /// `text` escaped as by `append(jsonEscaped:)`, for a string written many times.
    static func jsonEscapedString(_ text: String) -> String {
        let buffer = OutputBuffer(sink: MemoryByteSink(), drainThresholdBytes: 256)
        buffer.append(jsonEscaped: text)
        return buffer.pendingText
    }

    private func appendUTF8(_ scalar: Unicode.Scalar) {
        let start = reserve(4)
        var written = 0
        UTF8.encode(scalar) { unit in
            start[written] = unit
            written += 1
        }
        commit(written)
    }

    private static func hexDigit(_ value: UInt32) -> UInt8 {
        value < 10 ? UInt8(value) + UInt8(ascii: "0") : UInt8(value - 10) + UInt8(ascii: "a")
    }
}
