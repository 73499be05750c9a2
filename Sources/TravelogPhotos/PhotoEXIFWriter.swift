import CTravelogExiv2
import Foundation
import TravelogCore

/// Writes a placed position into a photo's own EXIF (`travelog photos geotag --write`), through
/// Exiv2 in memory: the file's bytes are read, Exiv2 adds the GPS tags (every other tag and the
/// image data as they were), and the result goes to a temporary file in the photo's folder, synced,
/// then renamed over the photo. A crash at any moment leaves either the old photo or the new one,
/// never half of one. The original is kept as `PHOTO.EXT.original` (a hard link to the untouched
/// file, or a copy where the file system has no links) unless the caller says not to; an existing
/// `.original` is never replaced, and a photo that has a GPS position is never written.
public enum PhotoEXIFWriter {
    /// What is written.
    public struct Fix: Hashable, Sendable {
        public var coordinate: Coordinate
        /// Metres above sea level, when known.
        public var altitudeMeters: Double?
        /// `GPSHPositioningError`: the placement's accuracy, metres.
        public var horizontalErrorMeters: Double?
        /// The UTC time of the position (`GPSDateStamp`, `GPSTimeStamp`).
        public var time: Date?

        public init(coordinate: Coordinate, altitudeMeters: Double? = nil, horizontalErrorMeters: Double? = nil, time: Date? = nil) {
            self.coordinate = coordinate
            self.altitudeMeters = altitudeMeters
            self.horizontalErrorMeters = horizontalErrorMeters
            self.time = time
        }
    }

    /// Why a photo was not written. Each case names the file.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Exiv2 cannot write EXIF into this format (HEIF/HEIC/AVIF with Debian's Exiv2 0.27.6).
        case formatNotWritable(path: String, mimeType: String, reason: String)
        /// The photo has a GPS latitude or longitude already.
        case hasPosition(path: String)
        /// `PHOTO.EXT.original` exists: it may be the only copy of an earlier original.
        case originalExists(path: String)
        /// The file changed since it was read for placing (its SHA-256 differs).
        case changed(path: String)
        case unreadable(path: String, reason: String)
        /// Exiv2 could not write the data (damaged metadata): its error code and message.
        case exiv2(path: String, code: Int, message: String)
        case unwritable(path: String, reason: String)

        public var description: String {
            switch self {
            case .formatNotWritable(let path, _, let reason):
                "\(path): not written: \(reason); --xmp writes a sidecar instead"
            case .hasPosition(let path): "\(path): not written: it has a GPS position already"
            case .originalExists(let path): "\(path): not written: \(path).original exists and is never replaced (--overwrite-original keeps no copy)"
            case .changed(let path): "\(path): not written: the file changed while it was being placed"
            case .unreadable(let path, let reason): "\(path): not written: cannot be read: \(reason)"
            case .exiv2(let path, let code, let message): "\(path): not written: Exiv2 error \(code): \(message)"
            case .unwritable(let path, let reason): "\(path): not written: \(reason)"
            }
        }
    }

    /// What was written.
    public struct Written: Hashable, Sendable {
        public var path: String
        /// `PHOTO.EXT.original`, or `nil` with `keepOriginal: false`.
        public var originalPath: String?
    }

    /// The suffix of the kept original.
    public static let originalSuffix = ".original"

    /// Writes `fix` into the photo at `path`.
    /// - Parameters:
    ///   - expectedDigest: the SHA-256 the photo had when it was read for placing; a file that
    ///     differs now is not written.
    ///   - keepOriginal: keep the untouched file as `PHOTO.EXT.original`.
    /// - Complexity: reads and writes the whole file once (Exiv2 rewrites the metadata's segment or
    ///   the TIFF structure in memory).
    @discardableResult
    public static func write(_ fix: Fix, into path: String, expectedDigest: String? = nil,
                             keepOriginal: Bool = true) throws(Failure) -> Written {
        let original: Data
        do { original = try PhotoMetadataReader.contents(path: path) } catch { throw .unreadable(path: path, reason: error.description) }
        if let expectedDigest, PhotoMetadataReader.contentDigest(original) != expectedDigest { throw .changed(path: path) }
        let backup = path + originalSuffix
        if keepOriginal, FileManager.default.fileExists(atPath: backup) { throw .originalExists(path: path) }
        let updated = try encode(fix, into: original, path: path)
        try replace(path: path, with: updated, keepingOriginalAt: keepOriginal ? backup : nil, originalBytes: original)
        return Written(path: path, originalPath: keepOriginal ? backup : nil)
    }

    /// The photo's bytes with `fix` in its GPS IFD (nothing written to disk).
    public static func encode(_ fix: Fix, into data: Data, path: String) throws(Failure) -> Data {
        var raw = travelog_gps_fix(latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                                   altitude_meters: fix.altitudeMeters ?? .nan,
                                   horizontal_error_meters: fix.horizontalErrorMeters.map { max(0, $0) } ?? .nan,
                                   utc_seconds: fix.time?.timeIntervalSince1970 ?? .nan)
        var error = travelog_exif_error()
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var mimeType: UnsafeMutablePointer<CChar>?
        let status = data.withUnsafeBytes { bytes in
            travelog_exiv2_write_gps(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &raw, &output, &outputSize, &mimeType, &error)
        }
        defer {
            free(output)
            free(mimeType)
        }
        let message = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch status {
        case 0:
            guard let output, outputSize > 0 else { throw .exiv2(path: path, code: -1, message: "nothing written") }
            return Data(bytes: output, count: outputSize)
        case Int32(TRAVELOG_EXIV2_NOT_WRITABLE):
            throw .formatNotWritable(path: path, mimeType: mimeType.map { String(cString: $0) } ?? "unknown", reason: message)
        case Int32(TRAVELOG_EXIV2_HAS_GPS):
            throw .hasPosition(path: path)
        default:
            throw .exiv2(path: path, code: Int(error.code), message: message)
        }
    }

    /// Puts `data` in place of the file at `path` through a synced temporary file in its folder and a
    /// rename; with `backup`, the untouched file is first linked (or copied) there, never replacing one.
    private static func replace(path: String, with data: Data, keepingOriginalAt backup: String?, originalBytes: Data) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".travelog-\(getpid()).partial"
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        try writeNew(temporary, data, mode: mode, path: path)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        if let backup {
            if link(path, backup) != 0 {
                let code = errno
                if code == EEXIST { throw .originalExists(path: path) }
                // A file system without hard links (an SD card's exFAT): a copy, never replacing one.
                try writeNew(backup, originalBytes, mode: mode, path: path)
            }
        }
        guard rename(temporary, path) == 0 else {
            throw .unwritable(path: path, reason: "cannot rename the new file into place: " + String(cString: strerror(errno)))
        }
        renamed = true
        let directory = open(folder, O_RDONLY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Writes a new file (failing if it exists), synced to disk.
    private static func writeNew(_ target: String, _ data: Data, mode: mode_t, path: String) throws(Failure) {
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST, target.hasSuffix(originalSuffix) { throw .originalExists(path: path) }
            throw .unwritable(path: path, reason: "\(target): " + String(cString: strerror(code)))
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += count
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(target)
            throw .unwritable(path: path, reason: "\(target): " + String(cString: strerror(failure)))
        }
    }
}

extension PhotoGeotagger.Result {
    /// What `--write` puts into the photo: the position, altitude, accuracy and time; `nil` when not placed.
    public var exifFix: PhotoEXIFWriter.Fix? {
        guard let placement, let coordinate = placement.coordinate else { return nil }
        return PhotoEXIFWriter.Fix(coordinate: coordinate, altitudeMeters: altitudeMeters,
                                   horizontalErrorMeters: placement.accuracyMeters, time: instant)
    }
}
