import CQREncode
import Foundation

/// A QR code (ISO/IEC 18004) of a text, drawn offline by libqrencode: the setup links a phone
/// scans. Byte mode, error correction level M (15 % of the code may be unreadable), the smallest
/// version (size) that holds the text.
public struct QRCode: Sendable, Equatable {
    /// Modules per side: 17 + 4 × version (21 for version 1, 177 for version 40).
    public let size: Int
    /// The symbol's version, 1–40.
    public let version: Int
    /// Row-major dark modules, `size × size`.
    public let modules: [Bool]

    /// The light border every reader expects around a code, in modules (ISO/IEC 18004: 4).
    public static let quietZoneModules = 4

    /// Encodes `text` (as UTF-8 bytes). - Throws: `QRCodeError.tooLong` past what version 40 holds
    /// (2,331 bytes at level M), `.encodingFailed` for anything else libqrencode refuses.
    public init(_ text: String) throws(QRCodeError) {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Self.maximumBytes else { throw .tooLong(bytes: text.utf8.count) }
        guard !text.utf8.contains(0) else { throw .encodingFailed }
        guard let code = text.withCString({ QRcode_encodeString8bit($0, 0, QR_ECLEVEL_M) }) else { throw .encodingFailed }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        version = Int(code.pointee.version)
        // Bit 0 of each byte is the module's colour (1 dark); the other bits are libqrencode's notes.
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// The most bytes a version-40 code holds at level M in byte mode.
    public static let maximumBytes = 2331

    /// Whether the module at (`row`, `column`) is dark; outside the symbol (the quiet zone) it is light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard row >= 0, column >= 0, row < size, column < size else { return false }
        return modules[row * size + column]
    }

    /// An SVG image of the code with its quiet zone, one user unit a module, black on white; it
    /// scales to any size without blurring (`shape-rendering: crispEdges`).
    /// - Parameter title: what a screen reader says of it.
    public func svg(title: String? = nil) -> String {
        let side = size + 2 * Self.quietZoneModules
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else { column += 1; continue }
                let start = column
                while column < size, isDark(row: row, column: column) { column += 1 }
                path += "M\(start + Self.quietZoneModules) \(row + Self.quietZoneModules)h\(column - start)v1h-\(column - start)z"
            }
        }
        let label = title.map { "<title>\(Self.escapedXML($0))</title>" } ?? ""
        return #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges" role="img">"#
            + label + #"<rect width="\#(side)" height="\#(side)" fill="white"/><path fill="black" d="\#(path)"/></svg>"#
    }

    /// The code for a terminal: two modules a character (Unicode upper half block ▀, the upper one in
    /// the foreground colour, the lower in the background), black on white whatever the terminal's
    /// colours (ANSI SGR 30/97 and 40/107), with a two-module quiet zone (enough on a screen).
    public func terminalText() -> String {
        let margin = 2
        var lines: [String] = []
        var row = -margin
        while row < size + margin {
            var line = ""
            for column in -margin..<(size + margin) {
                let top = isDark(row: row, column: column), bottom = isDark(row: row + 1, column: column)
                line += "\u{1B}[\(top ? 30 : 97);\(bottom ? 40 : 107)m▀"
            }
            lines.append(line + "\u{1B}[0m")
            row += 2
        }
        return lines.joined(separator: "\n")
    }

    static func escapedXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Why a text has no QR code.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(bytes: Int)
    case encodingFailed

    public var description: String {
        switch self {
        case .empty: "a QR code needs some text"
        case .tooLong(let bytes): "\(bytes) bytes do not fit a QR code (at most \(QRCode.maximumBytes) at error correction level M)"
        case .encodingFailed: "libqrencode could not encode the text"
        }
    }
}
