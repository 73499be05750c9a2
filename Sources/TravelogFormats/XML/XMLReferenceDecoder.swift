/// Decodes character data: the five predefined entities, character references, line
/// ends (CR LF and CR become LF, XML 1.0 §2.11) and, in attribute values, whitespace
/// normalisation (tab, LF, CR become a space, §3.3.3). The result is never longer than the input
/// (the shortest reference to a character of n UTF-8 bytes is longer than n bytes), so a
/// destination of `count` bytes is enough. The input is left untouched, so positions of errors
/// (and lines counted later) are those of the original bytes.
enum XMLReferenceDecoder {
    enum Mode {
        /// Element content: references and line ends.
        case text
        /// Attribute values: references, line ends, whitespace to spaces.
        case attribute
        /// CDATA sections: line ends only.
        case cdata
    }

    /// What went wrong, `offset` bytes into the decoded range.
    struct Failure: Error {
        var kind: XMLSyntaxError.Kind
        var offset: Int
    }

    /// Decodes `p[0..<count]` into `out` and returns the decoded length.
    /// - Complexity: O(count).
    static func decode(_ p: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>, mode: Mode) throws(Failure) -> Int {
        var read = 0
        var write = 0
        while read < count {
            let byte = p[read]
            switch byte {
            case 0x26 where mode != .cdata:  // &
                let (scalar, length) = try reference(p + read, available: count - read, offset: read)
                write += encode(scalar, into: out + write)
                read += length
            case 0x0D:  // CR, or CR LF, is one LF
                out[write] = mode == .attribute ? 0x20 : 0x0A
                write += 1
                read += (read + 1 < count && p[read + 1] == 0x0A) ? 2 : 1
            case 0x09 where mode == .attribute, 0x0A where mode == .attribute:
                out[write] = 0x20
                write += 1
                read += 1
            default:
                out[write] = byte
                write += 1
                read += 1
            }
        }
        return write
    }

    /// The character a reference at `p` (which starts with `&`) stands for, and its length.
    private static func reference(_ p: UnsafePointer<UInt8>, available: Int, offset: Int) throws(Failure) -> (UInt32, Int) {
        var end = 1
        while end < available, p[end] != UInt8(ascii: ";") {
            // A reference is a name or a number: stop at anything that ends one.
            if XMLCharacterClass.table[Int(p[end])] & XMLCharacterClass.name == 0, p[end] != UInt8(ascii: "#") { break }
            end += 1
        }
        guard end < available, p[end] == UInt8(ascii: ";"), end > 1 else {
            throw Failure(kind: .malformedReference, offset: offset)
        }
        let body = UnsafeBufferPointer(start: p + 1, count: end - 1)
        if body[0] == UInt8(ascii: "#") {
            guard let scalar = characterReference(body), isXMLCharacter(scalar) else {
                throw Failure(kind: .invalidCharacterReference(String(decoding: UnsafeBufferPointer(start: p, count: end + 1), as: UTF8.self)), offset: offset)
            }
            return (scalar, end + 1)
        }
        switch (body.count, body[0]) {
        case (2, UInt8(ascii: "l")) where body[1] == UInt8(ascii: "t"): return (0x3C, end + 1)
        case (2, UInt8(ascii: "g")) where body[1] == UInt8(ascii: "t"): return (0x3E, end + 1)
        case (3, UInt8(ascii: "a")) where body[1] == UInt8(ascii: "m") && body[2] == UInt8(ascii: "p"): return (0x26, end + 1)
        case (4, UInt8(ascii: "q")) where body.elementsEqual("quot".utf8): return (0x22, end + 1)
        case (4, UInt8(ascii: "a")) where body.elementsEqual("apos".utf8): return (0x27, end + 1)
        default:
            throw Failure(kind: .unknownEntity(name: String(decoding: body, as: UTF8.self)), offset: offset)
        }
    }

    /// The code point of `#digits` or `#xhex`, or `nil` if malformed or above U+10FFFF.
    private static func characterReference(_ body: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
        let digits = body.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value * (hex ? 16 : 10) + digit
            if value > 0x10FFFF { return nil }
        }
        return value
    }

    /// XML 1.0 §2.2 Char.
    private static func isXMLCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Writes the UTF-8 encoding of a valid scalar and returns its length (1–4).
    @inline(__always)
    static func encode(_ scalar: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            p[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            p[0] = UInt8(0xC0 | scalar >> 6)
            p[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            p[0] = UInt8(0xE0 | scalar >> 12)
            p[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            p[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            p[0] = UInt8(0xF0 | scalar >> 18)
            p[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            p[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            p[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
