import CTravelogVips
import Foundation

/// A photo's two thumbnails, made with libvips (Debian's `libvips-dev`, through `CTravelogVips`):
/// JPEGs turned upright by the EXIF orientation, never enlarged, made once per content digest and
/// cached in a folder only the owner reads. Chosen by measurement, see docs/ARCHITECTURE.md (Photos).
public struct PhotoThumbnails: Sendable {
    /// The sizes, by their long side.
    public enum Size: String, CaseIterable, Sendable {
        case small, large

        /// The longest side in pixels.
        public var longSidePixels: Int {
            switch self {
            case .small: 256
            case .large: 1280
            }
        }
    }

    /// Why no thumbnail could be made.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// libvips could not decode the image (its message).
        case undecodable(path: String, message: String)
        /// The cache could not be written (errno's reason).
        case unwritable(path: String, reason: String)

        public var description: String {
            switch self {
            case .undecodable(let path, let message): "\(path): the image cannot be decoded: \(message)"
            case .unwritable(let path, let reason): "\(path): cannot be written: \(reason)"
            }
        }
    }

    /// The cache folder (`…/thumbnails`): `ab/abcdef…-small.jpg` by digest.
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// libvips's version, for reports.
    public static var libraryVersion: String { String(cString: travelog_vips_version()) }

    /// The cached file of one size of a photo (it may not exist yet).
    public func url(digest: String, size: Size) -> URL {
        directory.appendingPathComponent(String(digest.prefix(2)), isDirectory: true)
            .appendingPathComponent("\(digest)-\(size.rawValue).jpg")
    }

    /// Whether both sizes are cached.
    public func exist(digest: String) -> Bool {
        Size.allCases.allSatisfy { FileManager.default.fileExists(atPath: url(digest: digest, size: $0).path) }
    }

    /// Makes both sizes from the photo's bytes and caches them, unless both are cached already.
    /// - Parameter path: names the photo in errors.
    /// - Complexity: one decode (shrink-on-load for JPEG), the small size made from the large.
    public func make(digest: String, data: Data, path: String) throws(Failure) {
        guard !exist(digest: digest) else { return }
        let jpegs = try Self.render(data, path: path)
        for (size, jpeg) in zip(Size.allCases, jpegs) { try write(jpeg, to: url(digest: digest, size: size)) }
    }

    func write(_ jpeg: Data, to target: URL) throws(Failure) {
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try jpeg.write(to: target, options: .atomic)
        } catch {
            throw .unwritable(path: target.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The thumbnails of a photo being added. A large JPEG (``previewMinimumPixels`` or more) whose file
    /// is whole and that embeds a preview of its own proportions gets its small size from the preview,
    /// and its large size when first asked for (``file(digest:size:originalPath:)``): a photo added
    /// costs no decode of its 12 million pixels. Any other photo gets both sizes at once (``make``).
    /// - Returns: whether the small size came from the embedded preview.
    @discardableResult
    public func makeForAdding(digest: String, data: Data, metadata: PhotoMetadata) throws(Failure) -> Bool {
        let small = url(digest: digest, size: .small)
        if FileManager.default.fileExists(atPath: small.path) { return false }
        if let jpeg = Self.smallFromPreview(data: data, metadata: metadata) {
            try write(jpeg, to: small)
            return true
        }
        try make(digest: digest, data: data, path: metadata.path)
        return false
    }

    /// Photos with fewer pixels are decoded: cheap enough, and sharper than a camera's 160 px preview.
    public static let previewMinimumPixels = 2_000_000

    /// The small thumbnail from the photo's embedded preview, when it may stand in for the image.
    static func smallFromPreview(data: Data, metadata: PhotoMetadata) -> Data? {
        guard metadata.mimeType == "image/jpeg", let width = metadata.pixelWidth, let height = metadata.pixelHeight,
              width * height >= previewMinimumPixels,
              let preview = PhotoPreview.read(data, minLongSide: Size.small.longSidePixels),
              max(preview.width, preview.height) >= 120,
              // The same proportions (a letterboxed preview, black bars and all, is not the photo).
              abs(Double(preview.width) / Double(preview.height) - Double(width) / Double(height)) <= 0.02 * Double(width) / Double(height),
              PhotoPreview.jpegIsWhole(data) else { return nil }
        var output = travelog_vips_jpeg()
        var message = [CChar](repeating: 0, count: 512)
        let status = preview.jpeg.withUnsafeBytes { bytes in
            travelog_vips_preview_thumbnail(bytes.baseAddress, bytes.count, Int32(Size.small.longSidePixels), Int32(metadata.orientation ?? 1),
                                            82, &output, &message, message.count)
        }
        guard status == 0 else { return nil }
        defer { travelog_vips_free(&output) }
        return Data(bytes: output.bytes, count: output.count)
    }

    /// One size, made from the original at `originalPath` when it is not cached (a cache emptied by
    /// hand, or a large size not made when the photo was added).
    public func file(digest: String, size: Size, originalPath: String) throws -> URL {
        let target = url(digest: digest, size: size)
        if !FileManager.default.fileExists(atPath: target.path) {
            try make(digest: digest, data: PhotoMetadataReader.contents(path: originalPath), path: originalPath)
        }
        return target
    }

    /// Forgets a photo's thumbnails.
    public func remove(digest: String) {
        for size in Size.allCases { try? FileManager.default.removeItem(at: url(digest: digest, size: size)) }
    }

    /// The JPEGs of every size, largest first as `Size.allCases` orders them reversed: large, then small from it.
    static func render(_ data: Data, path: String) throws(Failure) -> [Data] {
        let sides = Size.allCases.reversed().map { Int32($0.longSidePixels) }
        var outputs = [travelog_vips_jpeg](repeating: travelog_vips_jpeg(), count: sides.count)
        var message = [CChar](repeating: 0, count: 512)
        let status = data.withUnsafeBytes { bytes in
            travelog_vips_thumbnails(bytes.baseAddress, bytes.count, sides, Int32(sides.count), 82, &outputs, &message, message.count)
        }
        guard status == 0 else {
            throw .undecodable(path: path, message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { for index in outputs.indices { travelog_vips_free(&outputs[index]) } }
        let largestFirst = outputs.map { Data(bytes: $0.bytes, count: $0.count) }
        return largestFirst.reversed()
    }
}
