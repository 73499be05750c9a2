import PostgresNIO
import TravelogStore

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN` (PostgresNIO sends no binary COPY):
/// values separated by tabs, rows ended by a newline, `\N` for NULL, and a backslash before the
/// characters that would end a value. Reals are written in Swift's shortest form that reads back to
/// the same `Double`, which PostgreSQL's float8 input also reads exactly.
///
/// Source: PostgreSQL documentation, "COPY", File Formats, Text Format.
enum PostgresCopyText {
    /// Appends one row; `kinds` are its columns' kinds (booleans are written as `t` or `f`).
    static func write(_ row: StoreRow, kinds: [StoreTable.Kind], into buffer: inout ByteBuffer) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.writeStaticString("\\N")
            case .integer(let integer) where kinds[index] == .boolean: buffer.writeInteger(UInt8(ascii: integer != 0 ? "t" : "f"))
            case .integer(let integer): buffer.writeString(String(integer))
            case .real(let real): buffer.writeString(text(real))
            case .text(let text): write(text, into: &buffer)
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    static func text(_ real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
        return String(real)
    }

    static func write(_ text: String, into buffer: inout ByteBuffer) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F }) else {
            buffer.writeString(text)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }
}
