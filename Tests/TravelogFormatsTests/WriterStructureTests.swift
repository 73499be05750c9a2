import Foundation
import Testing
import TravelogCore
@testable import TravelogFormats
#if canImport(FoundationXML)
import FoundationXML
import TravelogTestSupport
#endif

@Suite("Writers: documents, escaping and streaming")
struct WriterStructureTests {
    static let gpxHeader = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Travelog" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd http://www.garmin.com/xmlschemas/TrackPointExtension/v2 https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

        """#

    @Test("an export without locations is a valid empty document, even with tracks and segments asked for",
          arguments: FileFormat.writable)
    func emptyDocuments(format: FileFormat) throws {
        let expected: String = switch format {
        case .gpx: Self.gpxHeader + "</gpx>\n"
        case .kml: #"<?xml version="1.0" encoding="UTF-8"?>\#n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">\#n<Document>\#n</Document>\#n</kml>\#n"#
        case .geojson: "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n"
        default: CSVEncoder.header + "\r\n"
        }
        #expect(try ExportSamples.export(format, []) == expected)
        #expect(try ExportSamples.export(format, [(name: "phone", segments: [[], []]), (name: nil, segments: [])]) == expected)
        let data = Data(expected.utf8)
        switch format {
        case .gpx, .kml: #expect(GPXReadBack.isWellFormed(data))
        case .geojson:
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect((object?["features"] as? [Any])?.isEmpty == true)
        default: break
        }
    }

    @Test("names are escaped for XML; characters XML cannot carry become U+FFFD", arguments: [FileFormat.gpx, .kml])
    func xmlEscaping(format: FileFormat) throws {
        let name = "a&b<c>d\"e'f\tg\nh\ri\u{1}j\u{FFFE}k😀 &amp;"
        let point = try ExportSamples.location(1, 2, time: "2024-01-01T00:00:00Z")
        let text = try ExportSamples.export(format, [(name: name, segments: [[point]])], document: ExportDocument(name: name, creator: "T<&>"))
        let escaped = "a&amp;b&lt;c&gt;d&quot;e'f\tg\nh&#13;i\u{FFFD}j\u{FFFD}k😀 &amp;amp;"
        #expect(text.components(separatedBy: "<name>\(escaped)</name>").count == 3)
        #expect(format != .gpx || text.contains("creator=\"T&lt;&amp;&gt;\""))
        // A parser gets the name back, less what XML cannot carry.
        let readable = "a&b<c>d\"e'f\tg\nh\ri\u{FFFD}j\u{FFFD}k😀 &amp;"
        if format == .gpx {
            let readBack = try GPXReadBack.parse(Data(text.utf8))
            #expect(readBack.metadataName == readable)
            #expect(readBack.tracks.map(\.name) == [readable])
        } else {
            #expect(GPXReadBack.isWellFormed(Data(text.utf8)))
        }
    }

    @Test("track names are escaped for JSON and read back unchanged")
    func jsonEscaping() throws {
        let name = "quote\" back\\slash \n\r\t\u{8}\u{C}\u{1}\u{1F} 😀 é </script>"
        let point = try ExportSamples.location(1, 2, time: "2024-01-01T00:00:00Z")
        let text = try ExportSamples.export(.geojson, [(name: name, segments: [[point]])])
        #expect(text.contains(#""track":"quote\" back\\slash \n\r\t\b\f\u0001\u001f 😀 é </script>""#))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let feature = (object?["features"] as? [[String: Any]])?.first
        #expect((feature?["properties"] as? [String: Any])?["track"] as? String == name)
    }

    @Test("segments and tracks are opened by their first location: no empty trk or trkseg")
    func lazyStructure() throws {
        let sink = MemoryByteSink()
        let writer = try #require(FileFormat.gpx.makeWriter(sink: sink))
        let point = try ExportSamples.location(1, 2, time: "2024-01-01T00:00:00Z")
        try writer.startTrack(named: "a")
        try writer.startSegment()
        try writer.startSegment()
        try writer.write([point])
        try writer.write([])
        try writer.startSegment()
        try writer.startTrack(named: "b")
        try writer.startSegment()
        try writer.finish()
        let readBack = try GPXReadBack.parse(Data(sink.bytes))
        #expect(readBack.tracks.map(\.name) == ["a"])
        #expect(readBack.tracks.map(\.segments.count) == [1])
        #expect(writer.locationsWritten == 1)
        #expect(writer.bytesWritten == sink.bytes.count)
    }

    @Test("locations without a track go into one unnamed track", arguments: [FileFormat.gpx, .kml])
    func implicitTrack(format: FileFormat) throws {
        let sink = MemoryByteSink()
        let writer = try #require(format.makeWriter(sink: sink))
        try writer.write([try ExportSamples.location(1, 2, time: "2024-01-01T00:00:00Z")])
        try writer.startSegment()
        try writer.write([try ExportSamples.location(3, 4, time: "2024-01-01T00:00:01Z")])
        try writer.finish()
        let opening = format == .gpx ? "<trk>" : "<Placemark>"
        let segment = format == .gpx ? "<trkseg>" : "<gx:Track>"
        #expect(sink.text.components(separatedBy: opening).count == 2)
        #expect(sink.text.components(separatedBy: segment).count == 3)
        #expect(!sink.text.contains("<name>"))
    }

    @Test("the output does not depend on how locations are batched, and passes the buffer many times over",
          arguments: FileFormat.writable)
    func batching(format: FileFormat) throws {
        let locations = ExportSamples.generated(count: 3_000, seed: 41)
        let whole = try ExportSamples.export(format, [(name: "x", segments: [locations])])
        let sink = MemoryByteSink()
        let writer = try #require(format.makeWriter(sink: sink))
        try writer.startTrack(named: "x")
        var start = 0
        var size = 1
        while start < locations.count {
            let end = min(locations.count, start + size)
            try writer.write(Array(locations[start..<end]))
            start = end
            size = size * 3 % 997 + 1
        }
        try writer.finish()
        #expect(sink.text == whole)
        #expect(sink.bytes.count > 3 * 65_536)
        #expect(writer.bytesWritten == sink.bytes.count)
        #expect(writer.locationsWritten == locations.count)
    }

    @Test("GeoJSON reads back with Foundation to the same values within its rounding")
    func geoJSONReadBack() throws {
        let locations = ExportSamples.generated(count: 500, seed: 43)
        let text = try ExportSamples.export(.geojson, [(name: nil, segments: [locations])])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let features = try #require(object?["features"] as? [[String: Any]])
        try #require(features.count == locations.count)
        for (feature, location) in zip(features, locations) {
            let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let properties = try #require(feature["properties"] as? [String: Any])
            // 7 decimals: within half of 1e-7 of the original (and a double's parsing error).
            #expect(abs(coordinates[0] - location.coordinate.longitude) <= 0.5e-7 + 1e-12)
            #expect(abs(coordinates[1] - location.coordinate.latitude) <= 0.5e-7 + 1e-12)
            #expect(coordinates.count == (location.altitudeMeters == nil ? 2 : 3))
            let time = try ExportSamples.date(try #require(properties["timestamp"] as? String))
            #expect(ExportSamples.milliseconds(time) == ExportSamples.milliseconds(location.timestamp))
            // 3 decimals: within half a millimetre.
            Self.expectClose(properties["altitude"] as? Double, location.altitudeMeters)
            Self.expectClose(properties["accuracy"] as? Double, location.horizontalAccuracyIfValid)
            Self.expectClose(properties["speed"] as? Double, location.speedIfKnown)
            Self.expectClose(properties["course"] as? Double, location.courseIfKnown.map { $0 >= 359.9995 ? 0 : $0 })
        }
    }

    static func expectClose(_ read: Double?, _ original: Double?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect((read == nil) == (original == nil), sourceLocation: sourceLocation)
        if let read, let original { #expect(abs(read - original) <= 0.5e-3 + 1e-9, sourceLocation: sourceLocation) }
    }

    @Test("a file sink writes the same bytes as memory, whatever its buffer size", arguments: [4096, 1 << 20])
    func fileSink(bufferSizeBytes: Int) throws {
        let locations = ExportSamples.generated(count: 2_000, seed: 47)
        let expected = try ExportSamples.export(.gpx, [(name: "x", segments: [locations])])
        let path = TestDirectory.makeFolder("sink").appendingPathComponent("out.gpx").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try FileByteSink(path: path, bufferSizeBytes: bufferSizeBytes)
        let writer = try #require(FileFormat.gpx.makeWriter(sink: sink))
        try writer.startTrack(named: "x")
        try writer.write(locations)
        try writer.finish()
        try sink.close()
        try sink.close()
        #expect(sink.isClosed)
        #expect(sink.bytesFlushed == expected.utf8.count)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        #expect(throws: FormatError.cannotWrite(path: path, reason: "the file is already closed")) {
            try sink.write(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    @Test("a file sink dropped without close() still writes what it buffered")
    func fileSinkDeinit() throws {
        let path = TestDirectory.makeFolder("sink").appendingPathComponent("out.csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let sink = try FileByteSink(path: path)
            let bytes = Array("buffered".utf8)
            try bytes.withUnsafeBytes { try sink.write($0) }
            #expect(sink.bytesFlushed == 0)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "buffered")
    }

    @Test("a file that cannot be created is a cannotWrite error naming it")
    func unwritableFile() {
        let path = "/nonexistent-travelog-directory/out.gpx"
        #expect(throws: FormatError.cannotWrite(path: path, reason: "No such file or directory")) {
            try FileByteSink(path: path)
        }
    }

    @Test("only GPX, KML, GeoJSON and CSV are writable")
    func writableFormats() {
        for format in FileFormat.allCases {
            let sink = MemoryByteSink()
            #expect((format.makeWriter(sink: sink)?.format) == (format.isWritable ? format : nil))
            #expect((format.exportFileExtension != nil) == format.isWritable)
        }
    }
}
