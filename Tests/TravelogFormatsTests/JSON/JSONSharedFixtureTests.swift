import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

@Suite("JSONParser: the real files in ../shared/fixtures", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct JSONSharedFixtureTests {
    /// Every file under the shared fixtures whose name ends in `extension`, by path relative to the folder.
    static func files(endingIn suffix: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: SharedFixtures.directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.sorted()
    }

    @Test("every .json file parses, whole and in 1 KiB pieces, to the same events, as JSONSerialization accepts it")
    func everyJSONFile() throws {
        let paths = Self.files(endingIn: ".json")
        #expect(paths.count >= 30, "expected the fixtures of dawarich, reitti, owntracks, overland, gpsbabel…")
        for path in paths {
            let url = SharedFixtures.url(path)
            let bytes = try [UInt8](Data(contentsOf: url))
            var whole = try JSONParser(contentsOfFile: url.path)
            let events = try tokens(of: &whole)
            #expect(events.count >= 2, "\(path)")
            #expect(try tokens(of: bytes, source: MemoryByteSource(bytes, maximumChunkBytes: 1024), options: smallWindow) == events, "\(path)")

            var skipping = try JSONParser(contentsOfFile: url.path)
            try skipping.skipValue()
            #expect(try skipping.next() == nil)
            #expect(skipping.bytesConsumed == bytes.count, "\(path)")

            let withoutMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            #expect((try? JSONSerialization.jsonObject(with: Data(withoutMark), options: [.fragmentsAllowed])) != nil, "\(path)")
        }
    }

    @Test("a Google Semantic Location History file with a byte order mark parses")
    func byteOrderMark() throws {
        var parser = try JSONParser(contentsOfFile: SharedFixtures.url("dawarich/google/edge_cases/semantic_history_with_bom.json").path)
        try parser.expect(.objectStart)
        #expect(try parser.nextKey())
        let isTimelineObjects = parser.stringEquals("timelineObjects")  // #expect cannot call a method of a ~Copyable value
        #expect(isTimelineObjects)
        #expect(parser.tokenPosition.column == 2)
    }

    @Test("reitti's Records.json gives E7 coordinates and timestamps")
    func records() throws {
        var parser = try JSONParser(contentsOfFile: SharedFixtures.url("reitti/google/Records.json").path)
        var count = 0
        try parser.expect(.objectStart)
        while try parser.nextKey() {
            guard parser.stringEquals("locations") else { try parser.skipValue(); continue }
            try parser.expect(.arrayStart)
            while try parser.nextElement() != nil {
                var latitudeE7: Int64?
                var timestamp: String?
                while try parser.nextKey() {
                    if parser.stringEquals("latitudeE7") { latitudeE7 = try parser.readInt64() }
                    else if parser.stringEquals("timestamp") { timestamp = try parser.readString() }
                    else { try parser.skipValue() }
                }
                let latitude = try #require(latitudeE7)
                #expect(abs(latitude) <= 900_000_000)
                #expect(timestamp?.hasSuffix("Z") == true)
                count += 1
            }
        }
        #expect(count > 10)
    }

    @Test("the JSON of every OwnTracks .rec line parses, one by one and as JSON Lines")
    func ownTracksRecorderLines() throws {
        let paths = Self.files(endingIn: ".rec")
        #expect(!paths.isEmpty)
        for path in paths {
            let text = try String(contentsOf: SharedFixtures.url(path), encoding: .utf8)
            let objects = text.split(separator: "\n").compactMap { line in line.split(separator: "\t").last.map(String.init) }
            #expect(!objects.isEmpty)
            var total = 0
            for object in objects {
                let events = try tokens(object)
                #expect(events.first == .objectStart && events.last == .objectEnd, "\(path): \(object)")
                total += events.count
            }
            #expect(try tokens(objects.joined(separator: "\n"), options: .init(allowsMultipleTopLevelValues: true)).count == total)
        }
    }
}
