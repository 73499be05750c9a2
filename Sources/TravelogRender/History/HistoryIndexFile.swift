import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TravelogCore
import TravelogStore

/// A user's ``HistoryIndexLoader/Loaded`` index saved to a file, so that a server start reads it
/// back in about a second instead of building it from every stored fix (15 s at 10M fixes).
///
/// The file holds, after a header (magic bytes, format version, a byte-order mark, the payload's
/// length and checksum), each device's ``DeviceSpan`` (which says what of the store the index
/// holds: ``HistoryIndexLoader/resume(_:store:userID:)`` compares it with the store before
/// trusting the file), the devices' last fixes and the index's columns. It is written to a
/// temporary file (0600) that is synced and then renamed over the old one, so a crash leaves the
/// old file or the new one, never half of one; a file that is truncated, damaged, of another
/// format or inconsistent is refused with a ``HistoryIndexFileError`` and never read out of bounds.
public enum HistoryIndexFile {
    /// Bumped whenever the layout or the index's levels change (2 had levels at zooms 9 and 11); a
    /// file of another version is rebuilt.
    public static let formatVersion: UInt32 = 3
    static let magic = Array("TRVLHIX\u{0}".utf8)
    static let byteOrderMark: UInt32 = 0x0102_0304
    /// magic, version, byte order, payload length, payload checksum.
    static let headerBytes = 8 + 4 + 4 + 8 + 8

    /// What the index holds of one device's history.
    public struct DeviceSpan: Hashable, Sendable {
        /// Fixes of the device in the index.
        public var fixCount: Int
        /// Times of its first and last fix (`nil` for none).
        public var first: Date?
        public var last: Date?
    }

    /// A saved index and what it holds per device.
    public struct Saved: Sendable {
        public var loaded: HistoryIndexLoader.Loaded
        public var spans: [DeviceID: DeviceSpan]
    }

    /// Saves an index, replacing the file at `url` once the new one is complete and synced.
    /// - Complexity: O(vertices of all levels); about 40 bytes per fix.
    public static func write(_ loaded: HistoryIndexLoader.Loaded, to url: URL) throws(HistoryIndexFileError) {
        let partial = url.path + ".partial-\(getpid())"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable(errno: errno) }
        var finished = false
        defer {
            close(descriptor)
            if !finished { unlink(partial) }
        }
        guard lseek(descriptor, off_t(headerBytes), SEEK_SET) == off_t(headerBytes) else { throw .unwritable(errno: errno) }
        var writer = IndexFileWriter(descriptor: descriptor)
        let spans = loaded.index.fixSpans()
        let devices = loaded.deviceIndices.sorted { $0.key < $1.key }
        try writer.write(UInt64(devices.count))
        for (device, deviceIndex) in devices {
            let span = spans[deviceIndex]
            try writer.write(device.rawValue)
            try writer.write(UInt32(deviceIndex))
            try writer.write(UInt64(span?.fixCount ?? 0))
            try writer.write(span?.firstSeconds ?? .nan)
            try writer.write(span?.lastSeconds ?? .nan)
            let last = loaded.lastLocations[device]
            try writer.write(last?.timestamp.timeIntervalSince1970 ?? .nan)
            try writer.write(last?.coordinate.latitude ?? .nan)
            try writer.write(last?.coordinate.longitude ?? .nan)
        }
        try loaded.index.write(to: &writer)
        try writer.flush()
        let length = lseek(descriptor, 0, SEEK_CUR) - off_t(headerBytes)
        var header = magic
        for field in [UInt64(formatVersion) | UInt64(byteOrderMark) << 32, UInt64(length), writer.checksum.final] {
            withUnsafeBytes(of: field.littleEndian) { header.append(contentsOf: $0) }
        }
        let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == headerBytes, fsync(descriptor) == 0, rename(partial, url.path) == 0 else { throw .unwritable(errno: errno) }
        finished = true
    }

    /// Reads a saved index, checking its header, checksum and structure.
    /// - Complexity: O(file size).
    public static func read(from url: URL) throws(HistoryIndexFileError) -> Saved {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw errno == ENOENT ? .notFound : .unreadable(errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(errno: errno) }
        let size = Int(status.st_size)
        var header = IndexFileReader(descriptor: descriptor, size: size)
        var magicRead: [UInt8] = []
        for _ in magic where header.remainingBytes > 0 { magicRead.append(try header.read(UInt8.self)) }
        guard magicRead.elementsEqual(magic.prefix(magicRead.count)) else { throw .notAnIndexFile }
        guard size >= headerBytes else { throw .truncated(offset: 0) }
        let version = try header.read(UInt32.self)
        guard version == formatVersion else { throw .unsupportedVersion(version) }
        guard try header.read(UInt32.self) == byteOrderMark else { throw .unsupportedVersion(version) }
        let length = try header.read(UInt64.self), checksum = try header.read(UInt64.self)
        guard length == UInt64(size - headerBytes) else { throw .truncated(offset: size) }
        var reader = IndexFileReader(descriptor: descriptor, size: size, offset: headerBytes)
        let saved = try payload(&reader)
        guard reader.checksum.final == checksum else { throw .checksumMismatch }
        guard reader.remainingBytes == 0 else { throw .inconsistent("bytes after the index") }
        return saved
    }

    private static func payload(_ reader: inout IndexFileReader) throws(HistoryIndexFileError) -> Saved {
        let deviceCount = try reader.read(UInt64.self)
        guard deviceCount <= UInt64(reader.remainingBytes / 60) else { throw .truncated(offset: reader.offset) }
        var deviceIndices: [DeviceID: Int] = [:], lastLocations: [DeviceID: Location] = [:], spans: [DeviceID: DeviceSpan] = [:]
        for _ in 0..<deviceCount {
            let device = DeviceID(rawValue: try reader.read(Int64.self))
            let deviceIndex = Int(try reader.read(UInt32.self))
            let fixCount = try reader.read(UInt64.self)
            let first = try reader.readDouble(), last = try reader.readDouble()
            let time = try reader.readDouble(), latitude = try reader.readDouble(), longitude = try reader.readDouble()
            guard deviceIndex <= Int(UInt16.max), fixCount <= UInt64(Int.max) else { throw .inconsistent("device \(device)") }
            deviceIndices[device] = deviceIndex
            spans[device] = DeviceSpan(fixCount: Int(fixCount), first: first.isNaN ? nil : Date(timeIntervalSince1970: first),
                                       last: last.isNaN ? nil : Date(timeIntervalSince1970: last))
            if let coordinate = Coordinate(validLatitude: latitude, longitude: longitude), !time.isNaN {
                lastLocations[device] = Location(coordinate: coordinate, timestamp: Date(timeIntervalSince1970: time))
            }
        }
        let index = try HistoryTileIndex(reading: &reader)
        let spansByIndex = index.fixSpans()
        for (device, deviceIndex) in deviceIndices where spansByIndex[deviceIndex]?.fixCount ?? 0 != spans[device]?.fixCount {
            throw .inconsistent("the fixes of device \(device)")
        }
        return Saved(loaded: HistoryIndexLoader.Loaded(index: index, deviceIndices: deviceIndices, lastLocations: lastLocations),
                     spans: spans)
    }
}
