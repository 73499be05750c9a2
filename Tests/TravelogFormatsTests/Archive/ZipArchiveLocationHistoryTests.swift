import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

@Suite("ZipArchive: the location history in a Takeout archive and the document of a KMZ")
struct ZipArchiveLocationHistoryTests {
    static let records = Array(#"{"locations": [{"latitudeE7": 525163000, "longitudeE7": 133777000, "timestamp": "2024-01-01T00:00:00Z"}]}"#.utf8)
    static let semantic = Array(#"{"timelineObjects": [{"placeVisit": {}}]}"#.utf8)
    static let settings = Array(#"{"deviceSettings": [], "gaiaId": "1"}"#.utf8)
    static let kml = Array(#"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>"#.utf8)

    @Test("entries are chosen by content whatever the folder names, and every other file is skipped with its reason")
    func takeoutDetection() throws {
        let nestedKMZ = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try ZipTestArchive.make([.init(name: "doc.kml", bytes: Self.kml)]))))
        let path = try ZipTestArchive.make([
            .folder("Takeout/"),
            .init(name: "Takeout/archive_browser.html", bytes: Array("<!DOCTYPE html><html></html>".utf8)),
            .init(name: "Takeout/Location History (Timeline)/Records.json", bytes: Self.records),
            .init(name: "Takeout/Location History (Timeline)/Settings.json", bytes: Self.settings),
            .init(name: "Takeout/Standortverlauf/Semantic Location History/2019/2019_JANUAR.json", bytes: Self.semantic),
            .init(name: "Takeout/Google Photos/IMG_0001.jpg", bytes: ZipTestArchive.noise(count: 200_000), deflated: false),
            .init(name: "Takeout/Maps (your places)/places.kmz", bytes: nestedKMZ, deflated: false),
            .init(name: "Takeout/empty.json", bytes: []),
        ], fileName: "takeout-20240101T000000Z-001.zip")
        let archive = try ZipArchive(path: path)
        let outcomes = archive.detectedEntries().map { [$0.entry.fileName: $0.outcome] }
        #expect(outcomes == [
            ["archive_browser.html": .skipped(.unrecognized)],
            ["Records.json": .read(.googleRecords)],
            ["Settings.json": .skipped(.notLocationHistory("Google location settings (no locations)"))],
            ["2019_JANUAR.json": .read(.googleSemantic)],
            ["IMG_0001.jpg": .skipped(.unrecognized)],
            ["places.kmz": .skipped(.nestedArchive)],
            ["empty.json": .skipped(.empty)],
        ])
        #expect(archive.locationHistoryEntries().map(\.entry.fileName) == ["Records.json", "2019_JANUAR.json"])
    }

    @Test("an entry that cannot be read is reported failed and the others are still detected")
    func failedEntry() throws {
        let original = try ZipTestArchive.make([
            .init(name: "a.json", bytes: ZipTestArchive.noise(count: 3000), deflated: false),
            .init(name: "Records.json", bytes: Self.records),
        ])
        let path = try ZipArchiveErrorTests.damaged(original) { $0[ZipArchiveErrorTests.firstDataOffset(name: "a.json") + 10] ^= 1 }
        let detections = try ZipArchive(path: path).detectedEntries()
        #expect(detections.map(\.outcome) == [
            .failed(.zip(ZipArchiveError(.checksumMismatch, archivePath: path, entryName: "a.json"))),
            .read(.googleRecords),
        ])
    }

    @Test("a KMZ's document is doc.kml, else the first .kml at the root, else the first anywhere")
    func kmzDocument() throws {
        let icon = ZipTestArchive.noise(count: 100)
        let withDoc = try ZipArchive(path: try ZipTestArchive.make([
            .init(name: "files/overlay.kml", bytes: Self.kml), .init(name: "other.kml", bytes: Self.kml),
            .init(name: "doc.kml", bytes: Self.kml), .init(name: "files/icon.png", bytes: icon),
        ], fileName: "a.kmz"))
        #expect(try withDoc.kmlDocumentEntry().name == "doc.kml")
        let rootFirst = try ZipArchive(path: try ZipTestArchive.make([
            .init(name: "files/overlay.kml", bytes: Self.kml), .init(name: "Route.KML", bytes: Self.kml),
        ], fileName: "b.kmz"))
        #expect(try rootFirst.kmlDocumentEntry().name == "Route.KML")
        let nested = try ZipArchive(path: try ZipTestArchive.make([.init(name: "files/track.kml", bytes: Self.kml)], fileName: "c.kmz"))
        #expect(try nested.kmlDocumentEntry().name == "files/track.kml")
        let noKML = try ZipTestArchive.make([.init(name: "files/icon.png", bytes: icon)], fileName: "d.kmz")
        #expect(throws: FormatError.zip(ZipArchiveError(.noKMLEntry, archivePath: noKML))) {
            try ZipArchive(path: noKML).kmlDocumentEntry()
        }
    }

    @Test("real Google and KML files zipped at test time stream back byte for byte and read as from the file",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason),
          arguments: [("dawarich/google/records.json", FileFormat.googleRecords),
                      ("dawarich/google/semantic_history.json", .googleSemantic),
                      ("dawarich/kml/gx_track.kml", .kml)])
    func sharedFixtures(relativePath: String, format: FileFormat) throws {
        let original = [UInt8](try Data(contentsOf: SharedFixtures.url(relativePath)))
        let isKML = format == .kml
        let path = try ZipTestArchive.make([
            .init(name: "files/icon.png", bytes: ZipTestArchive.noise(count: 500), deflated: false),
            .init(name: isKML ? "doc.kml" : "Takeout/Location History/\(relativePath.split(separator: "/").last ?? "")",
                  bytes: original, deflated: true),
        ], fileName: isKML ? "track.kmz" : "takeout.zip")
        let archive = try ZipArchive(path: path)
        let entry = isKML ? try archive.kmlDocumentEntry() : archive.entries[1]
        #expect(archive.locationHistoryEntries().map(\.format) == [format])
        var source = try archive.contents(of: entry)
        #expect(try source.readAll(chunkBytes: 3) == original)

        var fromArchive = try format.makeReader(source: try archive.contents(of: entry))
        var fromFile = try format.makeReader(source: try FileByteSource(path: SharedFixtures.url(relativePath).path))
        var count = 0
        while let record = try fromFile.next() {
            #expect(try fromArchive.next() == record)
            count += 1
        }
        #expect(try fromArchive.next() == nil)
        #expect(count > 0, "\(relativePath) has records")
    }
}
