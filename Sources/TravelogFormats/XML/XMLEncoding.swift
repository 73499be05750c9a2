/// The encodings `XMLPullParser` reads; everything but UTF-8 is transcoded to UTF-8 block by block.
public enum XMLEncoding: String, Hashable, Sendable, CustomStringConvertible {
    case utf8 = "UTF-8"
    case utf16LittleEndian = "UTF-16LE"
    case utf16BigEndian = "UTF-16BE"
    /// ISO-8859-1: each byte is the code point of the same value.
    case latin1 = "ISO-8859-1"
    /// Windows-1252: Latin-1 with printable characters in 0x80–0x9F.
    case windows1252 = "windows-1252"

    public var description: String { rawValue }

    /// The encoding an `encoding="…"` declaration names in a byte-compatible (8-bit) document, or
    /// `nil` if this parser does not read it. Names are compared without case (XML 1.0 §4.3.3).
    public init?(declaredName name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii",
             // UTF-16 declared in a document whose bytes are 8-bit: the bytes decide.
             "utf-16", "utf16":
            self = .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "iso-latin-1":
            self = .latin1
        case "windows-1252", "cp1252", "x-cp1252":
            self = .windows1252
        default:
            return nil
        }
    }
}
