import Foundation

/// Builds small JPEGs whose EXIF (big-endian TIFF, CIPA DC-008) holds exactly the tags a test
/// names, so the interpretation of each tag is tested without other projects' files.
public struct ExifJPEGBuilder {
    public enum Value {
        case ascii(String)
        case byte(UInt8)
        case short(UInt16)
        case rationals([(UInt32, UInt32)])

        var type: UInt16 {
            switch self {
            case .ascii: 2
            case .byte: 1
            case .short: 3
            case .rationals: 5
            }
        }

        var count: UInt32 {
            switch self {
            case .ascii(let text): UInt32(text.utf8.count + 1)
            case .byte, .short: 1
            case .rationals(let parts): UInt32(parts.count)
            }
        }

        var bytes: [UInt8] {
            switch self {
            case .ascii(let text): Array(text.utf8) + [0]
            case .byte(let value): [value]
            case .short(let value): be16(value)
            case .rationals(let parts): parts.flatMap { be32($0.0) + be32($0.1) }
            }
        }
    }

    public var ifd0: [(UInt16, Value)] = []
    public var exif: [(UInt16, Value)] = []
    public var gps: [(UInt16, Value)] = []
    public var width: UInt16 = 64
    public var height: UInt16 = 48
    /// A JPEG embedded as the EXIF thumbnail (IFD1, as cameras write a 160×120 preview); none when nil.
    public var thumbnail: Data?

    public init() {}

    // Tags (EXIF 2.32).
    public static let make: UInt16 = 0x010F, model: UInt16 = 0x0110, orientation: UInt16 = 0x0112
    public static let dateTimeOriginal: UInt16 = 0x9003, offsetTimeOriginal: UInt16 = 0x9011, subSecTimeOriginal: UInt16 = 0x9291
    public static let latitudeRef: UInt16 = 1, latitude: UInt16 = 2, longitudeRef: UInt16 = 3, longitude: UInt16 = 4
    public static let altitudeRef: UInt16 = 5, altitude: UInt16 = 6, timeStamp: UInt16 = 7, imgDirectionRef: UInt16 = 0x10
    public static let imgDirection: UInt16 = 0x11, dateStamp: UInt16 = 0x1D, hPositioningError: UInt16 = 0x1F

    /// Degrees, minutes and seconds as three rationals (seconds to 1/10000).
    public static func dms(_ degrees: Double) -> Value {
        let whole = UInt32(degrees), minutes = UInt32((degrees - Double(whole)) * 60)
        let seconds = ((degrees - Double(whole)) * 60 - Double(minutes)) * 60
        return .rationals([(whole, 1 as UInt32), (minutes, 1 as UInt32), (UInt32((seconds * 10000).rounded()), 10000 as UInt32)])
    }

    public func tiff() -> [UInt8] {
        func size(_ entries: [(UInt16, Value)]) -> Int {
            2 + entries.count * 12 + 4 + entries.reduce(0) { $0 + ($1.1.bytes.count > 4 ? ($1.1.bytes.count + 1) & ~1 : 0) }
        }
        var first = ifd0
        if !exif.isEmpty { first.append((0x8769, .rationals([]))) }   // placeholders, set below
        if !gps.isEmpty { first.append((0x8825, .rationals([]))) }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + size(first)
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : size(exif))
        // IFD1 (the thumbnail: compression 6 = JPEG, its offset and length, set below), then its bytes.
        let ifd1: [(UInt16, Value)] = thumbnail == nil ? [] : [(0x0103, .short(6)), (0x0201, .rationals([])), (0x0202, .rationals([]))]
        let ifd1Offset = gpsOffset + (gps.isEmpty ? 0 : size(gps))
        let thumbnailOffset = ifd1Offset + 2 + ifd1.count * 12 + 4
        var out: [UInt8] = Array("MM".utf8) + be16(42) + be32(UInt32(ifd0Offset))
        func write(_ entries: [(UInt16, Value)], at offset: Int, pointers: [UInt16: UInt32] = [:], next: Int = 0) {
            let sorted = entries.sorted { $0.0 < $1.0 }
            var data: [UInt8] = []
            let dataStart = offset + 2 + sorted.count * 12 + 4
            out += be16(UInt16(sorted.count))
            for (tag, value) in sorted {
                if let pointer = pointers[tag] {
                    out += be16(tag) + be16(4) + be32(1) + be32(pointer)
                    continue
                }
                out += be16(tag) + be16(value.type) + be32(value.count)
                let bytes = value.bytes
                if bytes.count <= 4 {
                    out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    out += be32(UInt32(dataStart + data.count))
                    data += bytes
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += be32(UInt32(next)) + data
        }
        write(first, at: ifd0Offset, pointers: [0x8769: UInt32(exifOffset), 0x8825: UInt32(gpsOffset)], next: thumbnail == nil ? 0 : ifd1Offset)
        if !exif.isEmpty { write(exif, at: exifOffset) }
        if !gps.isEmpty { write(gps, at: gpsOffset) }
        if let thumbnail {
            write(ifd1, at: ifd1Offset, pointers: [0x0201: UInt32(thumbnailOffset), 0x0202: UInt32(thumbnail.count)])
            out += thumbnail
        }
        return out
    }

    /// SOI, APP1 with the EXIF, a baseline frame header (the pixel size) and EOI.
    public func jpeg() -> Data {
        let app1 = Array("Exif".utf8) + [0, 0] + tiff()
        var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + be16(UInt16(app1.count + 2)) + app1
        out += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        out += [0xFF, 0xD9]
        return Data(out)
    }
}

private func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
private func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
