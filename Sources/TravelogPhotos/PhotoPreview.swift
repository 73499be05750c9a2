import CTravelogExiv2
import Foundation

/// A JPEG preview a camera embedded in its photo (the EXIF thumbnail, usually 160×120; raw files
/// carry larger ones), read by Exiv2 without decoding the image. ``PhotoThumbnails`` makes the small
/// thumbnail of a large JPEG from it: decoding a 12 MP JPEG costs 50-120 ms of CPU even at 1/8 scale
/// (libjpeg-turbo still reads every coefficient), the preview about 1 ms.
public struct PhotoPreview: Sendable {
    public var jpeg: Data
    public var width: Int
    public var height: Int

    /// The preview whose long side is the smallest at least `minLongSide`, else the largest;
    /// `nil` when the photo embeds none or Exiv2 cannot read it.
    public static func read(_ data: Data, minLongSide: Int) -> PhotoPreview? {
        var preview = travelog_exif_preview()
        var error = travelog_exif_error()
        let status = data.withUnsafeBytes { bytes in
            travelog_exiv2_preview(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, minLongSide, &preview, &error)
        }
        guard status == 0, let bytes = preview.bytes else { return nil }
        defer { travelog_exiv2_free_preview(&preview) }
        return PhotoPreview(jpeg: Data(bytes: bytes, count: preview.count), width: preview.width, height: preview.height)
    }

    /// Whether a JPEG's compressed image data is whole: its markers read from the start of image up to
    /// the first start of scan, and an end-of-image marker after it (a file cut short has none;
    /// within the scan data 0xFF is always followed by 0x00 or a restart marker). What a full decode
    /// would have caught of a truncated file, found without decoding.
    public static func jpegIsWhole(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
            var offset = 2
            while true {
                guard offset + 1 < bytes.count, bytes[offset] == 0xFF else { return false }
                var marker = bytes[offset + 1]
                while marker == 0xFF, offset + 2 < bytes.count {   // fill bytes
                    offset += 1
                    marker = bytes[offset + 1]
                }
                offset += 2
                if marker == 0xD9 { return false }                  // an end before any scan: no image
                if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
                guard offset + 1 < bytes.count else { return false }
                let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                guard length >= 2, offset + length <= bytes.count else { return false }
                if marker == 0xDA {
                    offset += length
                    break
                }
                offset += length
            }
            // The scan data (and any later tables and scans of a progressive JPEG) up to FF D9: most files
            // end with it (a cut file cannot: in scan data 0xFF is followed by 0x00 or a restart marker);
            // others (a motion photo's video after the image) are scanned.
            if bytes.count - 2 >= offset, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 { return true }
            var position = offset
            while position + 1 < bytes.count {
                guard let found = memchr(bytes.baseAddress! + position, 0xFF, bytes.count - position - 1) else { return false }
                position = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if bytes[position + 1] == 0xD9 { return true }
                position += 1
            }
            return false
        }
    }
}
