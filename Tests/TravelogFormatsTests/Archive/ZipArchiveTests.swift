import Foundation
import Testing
import TravelogTestSupport
import TravelogFormats

@Suite("ZipArchive: entries listed from the central directory, each streamed")
struct ZipArchiveTests {
    static let deflatedText = ZipTestArchive.text(lines: 20_000)
    static let storedNoise = ZipTestArchive.noise(count: 150_000)
    static let localizedName = "Takeout/Standortverlauf (Zeitachse)/Réçords ü 東京.json"

    static func sampleArchive() throws -> String {
        try ZipTestArchive.make([
            .folder("Takeout/"),
            .init(name: "Takeout/notes.txt", bytes: deflatedText, deflated: true),
            .init(name: "Takeout/photo.jpg", bytes: storedNoise, deflated: false),
            .init(name: localizedName, bytes: Array(#"{"locations": []}"#.utf8), deflated: true),
        ])
    }

    @Test("entries list their name, sizes, compression method and whether they are folders")
    func listing() throws {
        let archive = try ZipArchive(path: try Self.sampleArchive())
        #expect(archive.entries.map(\.name) == ["Takeout/", "Takeout/notes.txt", "Takeout/photo.jpg", Self.localizedName])
        #expect(archive.entries.map(\.isDirectory) == [true, false, false, false])
        #expect(archive.entries.map(\.index) == [0, 1, 2, 3])
        let notes = try #require(archive.entry(named: "Takeout/notes.txt"))
        #expect(notes.compressionMethod == .deflated)
        #expect(notes.uncompressedSizeBytes == Self.deflatedText.count)
        #expect(notes.compressedSizeBytes < notes.uncompressedSizeBytes / 5)
        let photo = try #require(archive.entry(named: "Takeout/photo.jpg"))
        #expect(photo.compressionMethod == .stored)
        #expect(photo.compressedSizeBytes == Self.storedNoise.count)
        #expect(photo.fileExtension == "jpg")
        let localized = archive.entries[3]
        #expect(localized.pathComponents == ["Takeout", "Standortverlauf (Zeitachse)", "Réçords ü 東京.json"])
        #expect(localized.fileName == "Réçords ü 東京.json")
    }

    @Test("stored and deflated entries stream back their exact bytes, whatever the read size",
          arguments: [1, 7, 4096, 1 << 20])
    func streaming(readBytes: Int) throws {
        let archive = try ZipArchive(path: try Self.sampleArchive())
        for (name, expected) in [("Takeout/notes.txt", Self.deflatedText), ("Takeout/photo.jpg", Self.storedNoise)] {
            var source = try archive.contents(of: try #require(archive.entry(named: name)))
            #expect(source.totalByteCount == expected.count)
            let bytes = try source.readAll(chunkBytes: readBytes)
            #expect(bytes == expected, "\(name) read \(readBytes) bytes at a time")
            #expect(try source.readAll(chunkBytes: 16).isEmpty, "the end stays the end")
        }
    }

    @Test("several entries can be open at once and read in turns")
    func interleaved() throws {
        let archive = try ZipArchive(path: try Self.sampleArchive())
        var notes = try archive.contents(of: archive.entries[1])
        var photo = try archive.contents(of: archive.entries[2])
        var notesBytes: [UInt8] = [], photoBytes: [UInt8] = []
        while notesBytes.count < Self.deflatedText.count || photoBytes.count < Self.storedNoise.count {
            notesBytes += try notes.readBytes(upTo: 1000)
            photoBytes += try photo.readBytes(upTo: 777)
        }
        #expect(notesBytes == Self.deflatedText)
        #expect(photoBytes == Self.storedNoise)
    }

    @Test("entries with ZIP64 extra fields (as in Takeout archives over 4 GB) are listed and read")
    func zip64() throws {
        let path = try ZipTestArchive.make([
            .init(name: "Records.json", bytes: Self.deflatedText, deflated: true, forceZip64: true),
            .init(name: "raw.bin", bytes: Self.storedNoise, deflated: false, forceZip64: true),
        ])
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.map(\.uncompressedSizeBytes) == [Self.deflatedText.count, Self.storedNoise.count])
        var records = try archive.contents(of: archive.entries[0])
        #expect(try records.readAll(chunkBytes: 5000) == Self.deflatedText)
        var raw = try archive.contents(of: archive.entries[1])
        #expect(try raw.readAll(chunkBytes: 5000) == Self.storedNoise)
    }

    @Test("a folder entry has no content to read and an empty file reads as empty")
    func foldersAndEmptyFiles() throws {
        let archive = try ZipArchive(path: try ZipTestArchive.make([.folder("a/"), .init(name: "a/empty.json", bytes: [])]))
        var empty = try archive.contents(of: archive.entries[1])
        #expect(try empty.readAll(chunkBytes: 10).isEmpty)
    }
}
