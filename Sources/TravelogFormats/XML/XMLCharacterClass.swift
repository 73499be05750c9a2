/// A 256-entry table of byte classes, so each scanning loop costs one load and one test per byte.
/// Bytes ≥ 0x80 (parts of UTF-8 sequences) count as name characters: names are not checked
/// against the Unicode categories of XML 1.0 §2.3.
enum XMLCharacterClass {
    /// May start a name: letters, `_`, `:`, bytes ≥ 0x80.
    static let nameStart: UInt8 = 1
    /// May continue a name: name starts, digits, `-`, `.`.
    static let name: UInt8 = 2
    /// XML whitespace: space, tab, LF, CR.
    static let whitespace: UInt8 = 4
    /// Ends a fast text scan: `<`, `&`, CR.
    static let textStop: UInt8 = 8
    /// Ends a fast attribute value scan: quotes, `<`, `&`, tab, LF, CR.
    static let attributeStop: UInt8 = 16

    /// The table, built once and never freed.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 {
            var flags: UInt8 = 0
            let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isLetter || byte == 0x5F || byte == 0x3A || byte >= 0x80 { flags |= nameStart | name }
            if (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E { flags |= name }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { flags |= whitespace }
            if byte == 0x3C || byte == 0x26 || byte == 0x0D { flags |= textStop }
            if byte == 0x22 || byte == 0x27 || byte == 0x3C || byte == 0x26 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                flags |= attributeStop
            }
            table[byte] = flags
        }
        return UnsafePointer(table)
    }()

    /// Whether `byte` is XML whitespace.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
