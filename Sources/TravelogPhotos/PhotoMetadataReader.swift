import CTravelogExiv2
import Foundation

/// Reads photos' metadata with Exiv2 (Debian's `libexiv2-dev`, through the C interface in
/// `CTravelogExiv2`): JPEG, HEIF/HEIC/AVIF, TIFF and the raw formats built on it (DNG, CR2, NEF,
/// ARW), PNG and WebP. The file is read once: the same bytes are hashed and handed to Exiv2, which
/// never opens a path itself. See docs/ARCHITECTURE.md (Photos) for why Exiv2 and what it costs.
public enum PhotoMetadataReader {
    /// Exiv2's version, for reports.
    public static var exiv2Version: String { String(cString: travelog_exiv2_version()) }

    /// Reads one file.
    /// - Throws: `PhotoMetadataError` naming the file; never traps on any input.
    /// - Complexity: O(file size) for the digest; Exiv2 reads only the metadata's boxes and segments.
    public static func read(path: String) throws(PhotoMetadataError) -> PhotoMetadata {
        try read(data: contents(path: path), path: path)
    }

    /// A regular file's bytes, for `read(data:path:)` and the thumbnails made from the same bytes.
    /// - Throws: `PhotoMetadataError.unreadable` naming the file (a folder, a FIFO, a device, errno's reason).
    public static func contents(path: String) throws(PhotoMetadataError) -> Data {
        // Only regular files: a FIFO or /dev/zero named on the command line would be read forever.
        // Read into memory, not mapped: a file truncated by someone else while mapped would be a SIGBUS.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw .unreadable(path: path, reason: status.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        return data
    }

    /// Reads a photo held in memory; `path` only names it in the result and in errors.
    public static func read(data: Data, path: String) throws(PhotoMetadataError) -> PhotoMetadata {
        guard !data.isEmpty else { throw .empty(path: path) }
        let digest = contentDigest(data)
        var error = travelog_exif_error()
        var found: UnsafeMutablePointer<travelog_exif_metadata>?
        let status = data.withUnsafeBytes { bytes in
            travelog_exiv2_read(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &found, &error)
        }
        guard status == 0, let found else {
            let message = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            switch Int(error.code) {
            case 3, 12, 13: throw .notAnImage(path: path)   // kerNotAnImage, kerMemoryContainsUnknownImageType, kerUnsupportedImageType
            default: throw .damaged(path: path, exiv2Code: Int(error.code), message: message)
            }
        }
        defer { travelog_exiv2_free(found) }
        let raw = found.pointee
        var tags = Self.tags(raw)
        let mimeType = String(cString: raw.mime_type)
        // A HEIF whose Exif item Exiv2 did not find: the item located here, its TIFF block decoded by Exiv2.
        if tags.isEmpty, Self.isHEIF(mimeType), let block = HEIFExifItem.tiffBlock(data) {
            var decoded: UnsafeMutablePointer<travelog_exif_metadata>?
            var ignored = travelog_exif_error()
            let status = block.withUnsafeBytes { bytes in
                travelog_exiv2_read_tiff(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &decoded, &ignored)
            }
            if status == 0, let decoded {
                tags = Self.tags(decoded.pointee)
                travelog_exiv2_free(decoded)
            }
        }
        var metadata = PhotoMetadata(
            path: path, contentDigest: digest, byteCount: data.count, mimeType: mimeType,
            pixelWidth: raw.pixel_width > 0 ? raw.pixel_width : nil, pixelHeight: raw.pixel_height > 0 ? raw.pixel_height : nil,
            orientation: nil, cameraMake: nil, cameraModel: nil, captureTime: nil, gpsTime: nil, position: nil, ignoredTags: [])
        if Self.isHEIF(mimeType) {
            let size = HEIFImageSize.primaryImageSize(data)
            (metadata.pixelWidth, metadata.pixelHeight) = (size?.width, size?.height)
        }
        var interpreter = ExifInterpreter(tags: tags)
        interpreter.fill(&metadata)
        return metadata
    }

    static func isHEIF(_ mimeType: String) -> Bool {
        mimeType.hasPrefix("image/hei") || mimeType == "image/avif"
    }

    /// The shim's tags by key; the first of a repeated tag wins, as in ExifTool (a second IFD0 of an MPO's other frame).
    private static func tags(_ raw: travelog_exif_metadata) -> [String: ExifTag] {
        var tags: [String: ExifTag] = [:]
        for index in 0..<raw.tag_count {
            let tag = raw.tags[index]
            let key = String(cString: tag.key)
            guard tags[key] == nil else { continue }
            let numbers = withUnsafeBytes(of: tag.numbers) { Array($0.bindMemory(to: Double.self).prefix(Int(tag.number_count))) }
            tags[key] = ExifTag(key: key, text: String(cString: tag.text), typeID: Int(tag.type_id), count: tag.count, numbers: numbers)
        }
        return tags
    }

    private static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }
}

/// One tag as the shim handed it over.
struct ExifTag: Hashable, Sendable {
    var key: String
    var text: String
    var typeID: Int
    var count: Int
    var numbers: [Double]
}
