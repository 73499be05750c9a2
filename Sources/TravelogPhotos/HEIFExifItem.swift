import Foundation

/// The EXIF block of a HEIF/HEIC file's `Exif` item, found by walking `meta` (`iinf` for the
/// item's id, `iloc` for where its bytes are: in the file or in `idat`; ISO/IEC 14496-12 8.11.3 and
/// 23008-12 A.2.1). Exiv2 0.27.6 misses some (an `iloc` of version 1 with base offsets, two Exif
/// items, a truncated `mdat` after them); ExifTool reads them, and so does this. The first Exif
/// item with a TIFF header is taken.
enum HEIFExifItem {
    /// The TIFF bytes ("II*\0" or "MM\0*" and what follows), or `nil`.
    /// - Complexity: O(size of the `meta` box).
    static func tiffBlock(_ data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            typealias H = HEIFImageSize
            guard let meta = H.box(named: "meta", in: bytes, range: 0..<bytes.count), meta.count >= 4 else { return nil }
            let children = (meta.lowerBound + 4)..<meta.upperBound
            guard let iinf = H.box(named: "iinf", in: bytes, range: children),
                  let iloc = H.box(named: "iloc", in: bytes, range: children), iinf.count >= 4 else { return nil }
            let idat = H.box(named: "idat", in: bytes, range: children)
            // iinf: FullBox, entry count (u16 in version 0, else u32), then infe boxes.
            let countSize = bytes[iinf.lowerBound] == 0 ? 2 : 4
            guard iinf.count >= 4 + countSize else { return nil }
            var exifItems: [Int] = []
            H.forEachBox(in: bytes, range: (iinf.lowerBound + 4 + countSize)..<iinf.upperBound) { type, body in
                guard type == "infe", body.count >= 12 else { return true }
                let version = bytes[body.lowerBound]
                guard version >= 2 else { return true }
                let idSize = version == 2 ? 2 : 4
                let at = body.lowerBound + 4
                guard at + idSize + 2 + 4 <= body.upperBound else { return true }
                let item = idSize == 2 ? Int(H.u16(bytes, at)) : Int(H.u32(bytes, at))
                let typeStart = at + idSize + 2
                if String(decoding: bytes[typeStart..<(typeStart + 4)], as: UTF8.self) == "Exif" { exifItems.append(item) }
                return true
            }
            for item in exifItems {
                guard let payload = location(of: item, iloc: iloc, idat: idat, in: bytes), payload.count > 4 else { continue }
                let skip = Int(H.u32(bytes, payload.lowerBound))
                guard skip <= payload.count - 4 - 8 else { continue }
                let tiff = (payload.lowerBound + 4 + skip)..<payload.upperBound
                let header = Array(bytes[tiff.lowerBound..<(tiff.lowerBound + 4)])
                guard header == [0x49, 0x49, 0x2A, 0x00] || header == [0x4D, 0x4D, 0x00, 0x2A] else { continue }
                return Data(bytes[tiff])
            }
            return nil
        }
    }

    /// Where an item's bytes are (one extent only, as Exif items have), inside the file.
    private static func location(of item: Int, iloc: Range<Int>, idat: Range<Int>?, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        typealias H = HEIFImageSize
        guard iloc.count >= 8 else { return nil }
        let version = bytes[iloc.lowerBound]
        guard version <= 2 else { return nil }
        var at = iloc.lowerBound + 4
        let offsetSize = Int(bytes[at] >> 4), lengthSize = Int(bytes[at] & 0xF)
        let baseSize = Int(bytes[at + 1] >> 4), indexSize = version >= 1 ? Int(bytes[at + 1] & 0xF) : 0
        at += 2
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize), [0, 4, 8].contains(indexSize) else {
            return nil
        }
        func read(_ size: Int) -> Int? {
            guard at + size <= iloc.upperBound else { return nil }
            defer { at += size }
            switch size {
            case 0: return 0
            case 2: return Int(H.u16(bytes, at))
            case 4: return Int(H.u32(bytes, at))
            default:
                let value = UInt64(H.u32(bytes, at)) << 32 | UInt64(H.u32(bytes, at + 4))
                return value <= UInt64(Int32.max) ? Int(value) : nil
            }
        }
        guard let itemCount = read(version < 2 ? 2 : 4) else { return nil }
        for _ in 0..<itemCount {
            guard let id = read(version < 2 ? 2 : 4) else { return nil }
            var method = 0
            if version >= 1 { guard let value = read(2) else { return nil }; method = value & 0xF }
            guard read(2) != nil, let base = read(baseSize), let extents = read(2) else { return nil }
            var found: (offset: Int, length: Int)?
            for _ in 0..<extents {
                if indexSize > 0 { guard read(indexSize) != nil else { return nil } }
                guard let offset = read(offsetSize), let length = read(lengthSize) else { return nil }
                if found == nil { found = (offset, length) }
            }
            guard id == item, extents == 1, let (offset, length) = found else { continue }
            let origin: Range<Int>
            switch method {
            case 0: origin = 0..<bytes.count
            case 1: guard let idat else { return nil }; origin = idat
            default: return nil
            }
            let start = origin.lowerBound + base + offset
            let end = length == 0 ? origin.upperBound : start + length
            guard base >= 0, offset >= 0, start <= end, end <= origin.upperBound else { return nil }
            return start..<end
        }
        return nil
    }
}
