import Foundation

/// The pixel size of a HEIF/HEIC/AVIF file's primary image: the `ispe` property (ISO/IEC 23008-12
/// 6.5.3) that `ipma` associates with the `pitm` item. Exiv2 0.27 reports the EXIF block's
/// PixelXDimension instead, which is wrong for a file whose EXIF was copied from another image.
/// Reads only the `meta` box; any box that does not add up gives `nil`.
enum HEIFImageSize {
    /// - Complexity: O(size of the `meta` box).
    static func primaryImageSize(_ data: Data) -> (width: Int, height: Int)? {
        data.withUnsafeBytes { raw -> (width: Int, height: Int)? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let meta = box(named: "meta", in: bytes, range: 0..<bytes.count), meta.count >= 4 else { return nil }
            let children = (meta.lowerBound + 4)..<meta.upperBound   // FullBox: version and flags
            guard let pitm = box(named: "pitm", in: bytes, range: children),
                  let iprp = box(named: "iprp", in: bytes, range: children),
                  let ipco = box(named: "ipco", in: bytes, range: iprp),
                  let ipma = box(named: "ipma", in: bytes, range: iprp),
                  pitm.count >= 6, bytes[pitm.lowerBound] == 0 || pitm.count >= 8 else { return nil }
            let primary = bytes[pitm.lowerBound] == 0 ? Int(u16(bytes, pitm.lowerBound + 4)) : Int(u32(bytes, pitm.lowerBound + 4))
            // The properties of ipco, in order (1-based in ipma).
            var properties: [(type: String, body: Range<Int>)] = []
            forEachBox(in: bytes, range: ipco) { type, body in properties.append((type, body)); return true }
            guard ipma.count >= 8 else { return nil }
            let version = bytes[ipma.lowerBound], wide = bytes[ipma.lowerBound + 3] & 1 == 1
            var offset = ipma.lowerBound + 4
            let entries = Int(u32(bytes, offset))
            offset += 4
            for _ in 0..<entries {
                let idSize = version < 1 ? 2 : 4
                guard offset + idSize + 1 <= ipma.upperBound else { return nil }
                let item = idSize == 2 ? Int(u16(bytes, offset)) : Int(u32(bytes, offset))
                offset += idSize
                let count = Int(bytes[offset])
                offset += 1
                let step = wide ? 2 : 1
                guard offset + count * step <= ipma.upperBound else { return nil }
                if item == primary {
                    for index in 0..<count {
                        let at = offset + index * step
                        let property = wide ? Int(u16(bytes, at) & 0x7FFF) : Int(bytes[at] & 0x7F)
                        guard property >= 1, property <= properties.count else { continue }
                        let (type, body) = properties[property - 1]
                        if type == "ispe", body.count >= 12 {
                            let width = Int(u32(bytes, body.lowerBound + 4)), height = Int(u32(bytes, body.lowerBound + 8))
                            return width > 0 && height > 0 ? (width, height) : nil
                        }
                    }
                    return nil
                }
                offset += count * step
            }
            return nil
        }
    }

    static func box(named name: String, in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Range<Int>? {
        var found: Range<Int>?
        forEachBox(in: bytes, range: range) { type, body in
            if type == name { found = body; return false }
            return true
        }
        return found
    }

    /// Calls `body` with each box's type and contents (after the header) until it returns `false`
    /// or a box runs past `range`.
    static func forEachBox(in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, _ body: (String, Range<Int>) -> Bool) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(u32(bytes, offset))
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { return }
                let large = UInt64(u32(bytes, offset + 8)) << 32 | UInt64(u32(bytes, offset + 12))
                guard large <= UInt64(Int.max) else { return }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { return }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard body(type, (offset + header)..<(offset + size)) else { return }
            offset += size
        }
    }

    static func u16(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16 {
        UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    static func u32(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
