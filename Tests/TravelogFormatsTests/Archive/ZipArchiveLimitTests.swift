import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

/// Issue 25, finding 7: an archive is a promise of work, bounded by `ZipArchiveLimits` before
/// anything is inflated.
@Suite("ZipArchive: entries, inflated bytes and ratio are bounded; overlapping entries are refused")
struct ZipArchiveLimitTests {
    @Test("more entries than the limit are refused from the end record, before the directory is read")
    func tooManyEntries() throws {
        let path = try ZipTestArchive.makeEmptyEntries(count: 11)
        #expect(throws: FormatError.zip(ZipArchiveError(.tooManyEntries(count: 11, limit: 10), archivePath: path))) {
            try ZipArchive(path: path, limits: ZipArchiveLimits(maximumEntries: 10))
        }
        #expect(try ZipArchive(path: path, limits: ZipArchiveLimits(maximumEntries: 11)).entries.count == 11)
    }

    @Test("the default limit: 100,001 entries are refused, 100,000 would be read")
    func defaultEntryLimit() throws {
        #expect(ZipArchiveLimits.default.maximumEntries == 100_000)
        let path = try ZipTestArchive.makeEmptyEntries(count: 100_001)
        #expect(throws: FormatError.zip(ZipArchiveError(.tooManyEntries(count: 100_001, limit: 100_000), archivePath: path))) {
            try ZipArchive(path: path)
        }
    }

    @Test("16 central-directory entries on one local header and one deflated stream are refused")
    func overlappingEntries() throws {
        let path = try ZipTestArchive.makeOverlapping(copies: 16, bytes: ZipTestArchive.text(lines: 2000))
        #expect(throws: FormatError.zip(ZipArchiveError(.overlappingEntries(other: "Records01.json"), archivePath: path,
                                                        entryName: "Records00.json"))) {
            try ZipArchive(path: path)
        }
        // One entry alone is a valid archive.
        let single = try ZipTestArchive.makeOverlapping(copies: 1, bytes: ZipTestArchive.text(lines: 2000), fileName: "one.zip")
        #expect(try ZipArchive(path: single).entries.map(\.name) == ["Records00.json"])
    }

    @Test("an entry that inflates more than 200 times its compressed size is refused: 10 MiB of zeros")
    func ratioBomb() throws {
        let path = try ZipTestArchive.make([.init(name: "Records.json", bytes: [UInt8](repeating: 0x20, count: 10 << 20))])
        do {
            _ = try ZipArchive(path: path)
            Issue.record("a 10 MiB entry deflated ~1000:1 was opened")
        } catch {
            guard case .zip(let zipError) = error, case .compressionRatioTooHigh(let ratio, let limit) = zipError.kind else {
                Issue.record("expected compressionRatioTooHigh, got \(error)")
                return
            }
            #expect(ratio > 200 && limit == 200)
            #expect(zipError.entryName == "Records.json")
            #expect(zipError.isLimitExceeded)
        }
        // Small entries are exempt whatever their ratio, and the ratio is a parameter.
        let small = try ZipTestArchive.make([.init(name: "zeros.json", bytes: [UInt8](repeating: 0x20, count: 100_000))],
                                            fileName: "small.zip")
        #expect(try ZipArchive(path: small).entries.count == 1)
        #expect(throws: FormatError.self) {
            try ZipArchive(path: small, limits: ZipArchiveLimits(maximumCompressionRatio: 10, ratioExemptBytes: 0))
        }
    }

    @Test("entries that inflate to more than the total limit are refused, however each compresses")
    func inflatedTotal() throws {
        let path = try ZipTestArchive.make([
            .init(name: "a.jpg", bytes: ZipTestArchive.noise(count: 600_000), deflated: false),
            .init(name: "b.jpg", bytes: ZipTestArchive.noise(count: 600_000, seed: 7), deflated: false),
        ])
        #expect(throws: FormatError.zip(ZipArchiveError(.inflatedSizeTooLarge(totalBytes: 1_200_000, limitBytes: 1_000_000),
                                                        archivePath: path))) {
            try ZipArchive(path: path, limits: ZipArchiveLimits(maximumInflatedBytes: 1_000_000))
        }
        #expect(try ZipArchive(path: path, limits: ZipArchiveLimits(maximumInflatedBytes: 1_200_000)).entries.count == 2)
    }

    @Test("an archive that is a byte range of a larger file (an upload's part) is read in place")
    func byteRange() throws {
        let archive = try ZipTestArchive.make([.init(name: "doc.kml", bytes: Array("<kml/>".utf8))])
        let zipBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: archive)))
        let path = archive + ".part"
        try Data(Array("--boundary\r\n\r\n".utf8) + zipBytes + Array("\r\n--boundary--\r\n".utf8)).write(to: URL(fileURLWithPath: path))
        let range = 14..<(14 + zipBytes.count)
        let opened = try ZipArchive(path: path, byteRange: range)
        var source = try opened.contents(of: opened.entries[0])
        #expect(try source.readAll(chunkBytes: 3) == Array("<kml/>".utf8))
    }

    @Test("an entry that inflates past the size its headers declare fails there, so the declared sizes bound the work")
    func longerThanDeclared() throws {
        let original = try ZipTestArchive.make([.init(name: "a.csv", bytes: ZipTestArchive.text(lines: 5000))])
        // The uncompressed size made 1,000 in the local header (offset 22) and the central header (24).
        let path = try ZipArchiveErrorTests.damaged(original) { bytes in
            bytes.replaceSubrange(22..<26, with: [0xE8, 0x03, 0, 0])
            let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
            if let central = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == signature }) {
                bytes.replaceSubrange((central + 24)..<(central + 28), with: [0xE8, 0x03, 0, 0])
            }
        }
        let archive = try ZipArchive(path: path)
        #expect(archive.entries[0].uncompressedSizeBytes == 1_000)
        var source = try archive.contents(of: archive.entries[0])
        do {
            let bytes = try source.readAll(chunkBytes: 4096)
            Issue.record("read \(bytes.count) bytes of an entry declared 1,000")
        } catch {
            guard case .zip(let zipError) = error else { Issue.record("expected a ZIP error, got \(error)"); return }
            #expect(zipError.entryName == "a.csv")
            #expect(source.bytesRead <= 1_000)
        }
    }
}
