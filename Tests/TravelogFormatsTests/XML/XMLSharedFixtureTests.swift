import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

/// Every GPX and KML file collected from other projects must parse (GPSBabel, gpxpy, Dawarich,
/// Reitti, trackintel): BOM, no namespace, comments, odd prefixes, a newline before the XML
/// declaration. A file named as deliberately malformed must instead fail with a position.
@Suite("XML on shared fixtures", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct XMLSharedFixtureTests {
    static let files: [String] = {
        guard SharedFixtures.available,
              let walker = FileManager.default.enumerator(atPath: SharedFixtures.directory.path)
        else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { ["gpx", "kml"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .sorted()
    }()

    static func isDeliberatelyMalformed(_ path: String) -> Bool {
        ["malformed", "invalid", "broken", "truncated"].contains { path.lowercased().contains($0) }
    }

    @Test("the shared fixtures hold GPX and KML files")
    func found() {
        #expect(Self.files.count(where: { $0.hasSuffix(".gpx") }) >= 10)
        #expect(Self.files.count(where: { $0.hasSuffix(".kml") }) >= 4)
    }

    @Test("each GPX or KML file parses to the end, from its file and block by block", arguments: files)
    func parses(relativePath: String) throws {
        let path = SharedFixtures.url(relativePath).path
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let fromFile = XMLOutcome(try FileByteSource(path: path))
        if Self.isDeliberatelyMalformed(relativePath) {
            guard case .failure(let error) = fromFile else {
                Issue.record("\(relativePath) is named as malformed but parsed")
                return
            }
            #expect(error.position.byteOffset <= bytes.count)
            return
        }
        guard case .events(let events) = fromFile else {
            Issue.record("\(relativePath): \(fromFile)")
            return
        }
        #expect(events.count(where: { $0.hasPrefix("<") }) == events.count(where: { $0.hasPrefix("</") }) * 2)
        #expect(events.first.map { $0.hasPrefix("<gpx") || $0.hasPrefix("<kml") } == true, "root of \(relativePath)")
        let small = XMLOutcome(MemoryByteSource(bytes, maximumChunkBytes: 7), options: .init(bufferCapacityBytes: 64))
        #expect(small == fromFile)
    }

    @Test("the file parser reports the whole file consumed and its size")
    func progress() throws {
        guard let relativePath = Self.files.first(where: { $0.hasSuffix("20250531.gpx") }) ?? Self.files.last else { return }
        let parser = try XMLPullParser(path: SharedFixtures.url(relativePath).path, options: .init(bufferCapacityBytes: 4096))
        while try parser.next() != nil {}
        #expect(parser.sourceSizeBytes == parser.consumedByteCount)
        #expect(parser.bufferCapacityBytes == 4096)
    }
}
