import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

@Suite("ZipArchive: broken archives fail with the entry and the damage")
struct ZipArchiveErrorTests {
    /// The archive at `path` with `transform` applied to its bytes, written beside it.
    static func damaged(_ path: String, _ transform: (inout [UInt8]) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        transform(&bytes)
        let damagedPath = path + ".damaged.zip"
        try Data(bytes).write(to: URL(fileURLWithPath: damagedPath))
        return damagedPath
    }

    /// Where the first entry's data starts: after its 30-byte local header and name (APPNOTE
    /// 4.3.7; Python writes no extra field for a small entry).
    static func firstDataOffset(name: String) -> Int { 30 + name.utf8.count }

    @Test("a file cut in half is not a ZIP archive (no end of central directory)")
    func cutInHalf() throws {
        let path = try Self.damaged(try ZipTestArchive.make([.init(name: "a.json", bytes: ZipTestArchive.noise(count: 4000))])) {
            $0.removeLast($0.count / 2)
        }
        #expect(throws: FormatError.zip(ZipArchiveError(.notAZipArchive, archivePath: path))) { try ZipArchive(path: path) }
    }

    @Test("a GPX file is not a ZIP archive")
    func notZip() throws {
        let path = TestDirectory.makeFolder("zip").appendingPathComponent("track.gpx").path
        try Data("<gpx></gpx>".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FormatError.zip(ZipArchiveError(.notAZipArchive, archivePath: path))) { try ZipArchive(path: path) }
    }

    @Test("a missing file cannot be read")
    func missing() {
        #expect(throws: FormatError.cannotRead(path: "/nonexistent/takeout.zip", reason: "no such file")) {
            try ZipArchive(path: "/nonexistent/takeout.zip")
        }
    }

    @Test("a stored entry with a changed byte fails its CRC-32 check at the end, naming the entry")
    func storedCRC() throws {
        let original = try ZipTestArchive.make([.init(name: "Records.json", bytes: ZipTestArchive.noise(count: 5000), deflated: false)])
        let path = try Self.damaged(original) { $0[Self.firstDataOffset(name: "Records.json") + 2500] ^= 0xFF }
        let archive = try ZipArchive(path: path)
        var source = try archive.contents(of: archive.entries[0])
        #expect(throws: FormatError.zip(ZipArchiveError(.checksumMismatch, archivePath: path, entryName: "Records.json"))) {
            _ = try source.readAll(chunkBytes: 1024)
        }
    }

    @Test("a deflated entry with damaged data fails while inflating, naming the entry")
    func deflatedDamage() throws {
        let name = "Takeout/Location History/Records.json"
        let original = try ZipTestArchive.make([.init(name: name, bytes: ZipTestArchive.text(lines: 5000), deflated: true)])
        let path = try Self.damaged(original) {
            let start = Self.firstDataOffset(name: name) + 40
            for index in start..<(start + 200) { $0[index] ^= 0x5A }
        }
        let archive = try ZipArchive(path: path)
        var source = try archive.contents(of: archive.entries[0])
        do {
            _ = try source.readAll(chunkBytes: 4096)
            Issue.record("damaged deflate data read without error")
        } catch {
            guard case .zip(let zipError) = error else { Issue.record("expected a ZIP error, got \(error)"); return }
            #expect(zipError.entryName == name)
            #expect([.corruptCompressedData, .checksumMismatch].contains(zipError.kind), "\(zipError)")
            #expect(zipError.description.hasPrefix("\(path), entry '\(name)': "))
        }
    }

    @Test("an entry compressed with a method libzip does not know is listed, and refused with its method number when read")
    func unknownMethod() throws {
        let original = try ZipTestArchive.make([.init(name: "a.json", bytes: Array("{}".utf8), deflated: false)])
        // Method 17 (APPNOTE 4.4.5: reserved by PKWARE; 99 would be read as AES) in the local header
        // (offset 8) and in the central directory header (offset 10 after its signature).
        let path = try Self.damaged(original) { bytes in
            bytes.replaceSubrange(8..<10, with: [17, 0])
            let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
            if let central = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == signature }) {
                bytes.replaceSubrange((central + 10)..<(central + 12), with: [17, 0])
            }
        }
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.first?.compressionMethod == .other(17))
        #expect(throws: FormatError.zip(ZipArchiveError(.unsupportedCompression(method: 17), archivePath: path, entryName: "a.json"))) {
            var source = try archive.contents(of: archive.entries[0])
            _ = try source.readAll(chunkBytes: 64)
        }
    }

    @Test("an entry whose local header points past the end of the file is reported when it is read")
    func brokenLocalHeader() throws {
        let original = try ZipTestArchive.make([.init(name: "doc.kml", bytes: Array("<kml/>".utf8))])
        // The local header's name length (APPNOTE 4.3.7, offset 26) made 65,535: the data would
        // start beyond the end of the file.
        let path = try Self.damaged(original) { $0.replaceSubrange(26..<28, with: [0xFF, 0xFF]) }
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.map(\.name) == ["doc.kml"], "the central directory is intact")
        do {
            var source = try archive.contents(of: archive.entries[0])
            _ = try source.readAll(chunkBytes: 64)
            Issue.record("a broken local header read without error")
        } catch {
            guard case .zip(let zipError) = error else { Issue.record("expected a ZIP error, got \(error)"); return }
            #expect(zipError.entryName == "doc.kml", "\(zipError)")
        }
    }
}
