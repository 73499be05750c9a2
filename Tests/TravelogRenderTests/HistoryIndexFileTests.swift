import Foundation
import Testing
import TravelogCore
import TravelogStore
@testable import TravelogRender

@Suite("A saved history index")
struct HistoryIndexFileTests {
    /// Two devices' tracks (``HistoryTileSummaryTests/tracks()``) in an index, as the loader builds it.
    static func loaded() -> HistoryIndexLoader.Loaded {
        var loaded = HistoryIndexLoader.Loaded(index: HistoryTileIndex(), deviceIndices: [DeviceID(rawValue: 7): 0, DeviceID(rawValue: 9): 1],
                                               lastLocations: [:])
        for fix in HistoryTileSummaryTests.tracks() {
            loaded.index.append(fix.location, deviceIndex: fix.device)
            loaded.lastLocations[DeviceID(rawValue: fix.device == 0 ? 7 : 9)] = fix.location
        }
        return loaded
    }

    /// A file in a new folder of the system's temporary directory (removed by the test).
    static func file() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-history-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("user-1.index")
    }

    /// What tiles around the tracks hold, at every level's zoom and a raw one, for comparing two indices.
    static func drawn(_ index: HistoryTileIndex) -> [String] {
        var drawn: [String] = []
        for zoom in [3, 5, 8, 11, 13, 16] {
            for coordinate in [Coordinate(validLatitude: 52.52, longitude: 13.40)!, Coordinate(validLatitude: 48.14, longitude: 11.58)!] {
                let tile = Tile(containing: coordinate, zoom: zoom)
                let content = index.content(in: tile.mapRect, zoom: zoom, filter: .init(from: Date(timeIntervalSince1970: 1_700_010_000)))
                drawn.append("\(zoom) \(content.lines.map(\.points)) \(content.fixes.map(\.point)) \(content.fixDevices)")
            }
        }
        return drawn
    }

    @Test("a saved index reads back with the same tiles, bounds, devices and last fixes, and what each device holds")
    func roundTrip() throws {
        let loaded = Self.loaded()
        let file = try Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try HistoryIndexFile.write(loaded, to: file)
        let saved = try HistoryIndexFile.read(from: file)
        #expect(saved.loaded.index.fixCount == loaded.index.fixCount)
        #expect(saved.loaded.index.vertexCount == loaded.index.vertexCount)
        #expect(Self.drawn(saved.loaded.index) == Self.drawn(loaded.index))
        #expect(saved.loaded.index.summary(filter: .init(devices: [1])) == loaded.index.summary(filter: .init(devices: [1])))
        #expect(saved.loaded.deviceIndices == loaded.deviceIndices)
        #expect(saved.loaded.lastLocations == loaded.lastLocations)
        let fixes = HistoryTileSummaryTests.tracks()
        let phone = fixes.filter { $0.device == 0 }
        #expect(saved.spans[DeviceID(rawValue: 7)] == HistoryIndexFile.DeviceSpan(fixCount: phone.count, first: phone.first?.location.timestamp,
                                                                                 last: phone.last?.location.timestamp))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("a read index takes later fixes as the built one does")
    func appendsAfterReading() throws {
        var built = Self.loaded()
        let file = try Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try HistoryIndexFile.write(built, to: file)
        var read = try HistoryIndexFile.read(from: file).loaded
        let later = Location(coordinate: Coordinate(validLatitude: 52.6, longitude: 13.5)!, timestamp: Date(timeIntervalSince1970: 1_800_000_000))
        let earlier = Location(coordinate: Coordinate(validLatitude: 52.6, longitude: 13.5)!, timestamp: Date(timeIntervalSince1970: 1_600_000_000))
        let builtTook = built.index.append(later, deviceIndex: 0), readTook = read.index.append(later, deviceIndex: 0)
        #expect(builtTook && readTook)
        let tookEarlier = read.index.append(earlier, deviceIndex: 0)
        #expect(!tookEarlier)  // the device's last time came back too
        #expect(Self.drawn(read.index) == Self.drawn(built.index))
        #expect(read.index.summary(filter: .init()) == built.index.summary(filter: .init()))
    }

    @Test("the file's checksum does not depend on how its bytes are split into sections")
    func checksumSplits() {
        let bytes = (0..<301).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var whole = IndexFileChecksum()
        bytes.withUnsafeBytes { whole.add($0) }
        for cuts in [[1, 2, 3], [7, 40, 41, 200], [8, 16, 24, 32, 64, 299], [33, 100, 150]] {
            var pieces = IndexFileChecksum()
            var start = 0
            for end in cuts + [bytes.count] {
                bytes[start..<end].withUnsafeBytes { pieces.add($0) }
                start = end
            }
            #expect(pieces.final == whole.final, "cut at \(cuts)")
        }
        var changed = IndexFileChecksum()
        var other = bytes
        other[150] ^= 1
        other.withUnsafeBytes { changed.add($0) }
        #expect(changed.final != whole.final)
    }

    @Test("a file cut short anywhere is refused with an error, never read beyond its end")
    func truncated() throws {
        let file = try Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try HistoryIndexFile.write(Self.loaded(), to: file)
        let bytes = try Data(contentsOf: file)
        for length in [0, 5, 8, 20, HistoryIndexFile.headerBytes, HistoryIndexFile.headerBytes + 7, bytes.count / 3, bytes.count / 2, bytes.count - 1] {
            try bytes.prefix(length).write(to: file)
            #expect(throws: HistoryIndexFileError.self, "cut at \(length) of \(bytes.count) bytes") {
                try HistoryIndexFile.read(from: file)
            }
        }
    }

    @Test("a damaged byte, another format version or another kind of file is refused")
    func damaged() throws {
        let file = try Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try HistoryIndexFile.write(Self.loaded(), to: file)
        let bytes = try Data(contentsOf: file)
        for offset in [HistoryIndexFile.headerBytes + 3, bytes.count / 4, bytes.count / 2, bytes.count - 2] {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            try damaged.write(to: file)
            #expect(throws: HistoryIndexFileError.self, "byte \(offset) changed") { try HistoryIndexFile.read(from: file) }
        }
        var otherVersion = bytes
        otherVersion[8] = UInt8(truncatingIfNeeded: HistoryIndexFile.formatVersion + 1)
        try otherVersion.write(to: file)
        #expect(throws: HistoryIndexFileError.unsupportedVersion(HistoryIndexFile.formatVersion + 1)) { try HistoryIndexFile.read(from: file) }
        try Data("SQLite format 3\u{0}and then some more bytes of another file".utf8).write(to: file)
        #expect(throws: HistoryIndexFileError.notAnIndexFile) { try HistoryIndexFile.read(from: file) }
        try FileManager.default.removeItem(at: file)
        #expect(throws: HistoryIndexFileError.notFound) { try HistoryIndexFile.read(from: file) }
    }
}
