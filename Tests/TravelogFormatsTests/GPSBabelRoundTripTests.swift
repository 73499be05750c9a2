import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Debian's `gpsbabel`, the reference reader the export promise is stated against.
enum GPSBabel {
    static let executable = URL(fileURLWithPath: "/usr/bin/gpsbabel")

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    static let absentReason: Comment = """
        gpsbabel is missing (/usr/bin/gpsbabel): these tests check that GPSBabel reads our GPX, KML, \
        GeoJSON and CSV back to the same points; install Debian's package with `apt-get install gpsbabel`
        """

    /// Converts `input`, read as GPSBabel format `format`, to GPX 1.0 (which keeps speed and course
    /// as elements, and coordinates with 9 decimals), and reads that back.
    static func readBack(_ input: URL, format: String, dataFlag: String) throws -> GPXReadBack {
        let output = input.appendingPathExtension("gpsbabel.gpx")
        let result = try ChildProcess.run(executable.path, [dataFlag, "-i", format, "-f", input.path, "-o", "gpx,gpxver=1.0", "-F", output.path])
        guard result.status == 0 else {
            throw ExportTestFailure.toolFailed("gpsbabel exited with \(result.status): \(result.errorText)")
        }
        return try GPXReadBack.parse(try Data(contentsOf: output))
    }
}

@Suite("Writers: GPSBabel reads back what we write", .enabled(if: GPSBabel.isInstalled, GPSBabel.absentReason))
struct GPSBabelRoundTripTests {
    /// Three tracks of generated locations, the first broken into two segments.
    static let tracks: [(name: String?, segments: [[Location]])] = {
        let locations = ExportSamples.generated(count: 400, seed: 53)
        return [
            (name: "phone", segments: [Array(locations[0..<120]), Array(locations[120..<250])]),
            (name: "watch & <bike>", segments: [Array(locations[250..<330])]),
            (name: "van", segments: [Array(locations[330...])]),
        ]
    }()

    static var locations: [Location] { tracks.flatMap { $0.segments.flatMap { $0 } } }

    /// Writes the tracks as `format` into a fresh temporary folder and lets GPSBabel read them.
    static func roundTrip(_ format: FileFormat, gpsbabelFormat: String, dataFlag: String) throws -> GPXReadBack {
        let folder = TestDirectory.makeFolder("gpsbabel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.\(format.exportFileExtension ?? "out")")
        let sink = try FileByteSink(path: file.path)
        let writer = try #require(format.makeWriter(sink: sink, document: ExportDocument(name: "round trip")))
        for track in tracks {
            try writer.startTrack(named: track.name)
            for segment in track.segments {
                try writer.startSegment()
                try writer.write(segment)
            }
        }
        try writer.finish()
        try sink.close()
        return try GPSBabel.readBack(file, format: gpsbabelFormat, dataFlag: dataFlag)
    }

    /// Same points in the same order: coordinates within 1e-7° of the originals (our 7 decimals are
    /// within 0.5e-7, GPSBabel's 9 within 0.5e-9), and, where GPSBabel reads them, the same
    /// millisecond and elevations within 1 mm (our 3 decimals, then GPSBabel's 3).
    static func expectSamePoints(_ points: [ReadBackPoint], times: Bool, elevations: Bool,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let originals = locations
        try #require(points.count == originals.count, sourceLocation: sourceLocation)
        var failures: [String] = []
        for (index, (point, original)) in zip(points, originals).enumerated() {
            if abs(point.latitude - original.coordinate.latitude) > 1e-7 { failures.append("\(index): latitude \(point.latitude)") }
            if Self.longitudeDifference(point.longitude, original.coordinate.longitude) > 1e-7 {
                failures.append("\(index): longitude \(point.longitude) for \(original.coordinate.longitude)")
            }
            if times {
                let time = try point.time.map(ExportSamples.date).map(ExportSamples.milliseconds)
                if time != ExportSamples.milliseconds(original.timestamp) { failures.append("\(index): time \(point.time ?? "none")") }
            }
            if elevations {
                let matches = switch (point.elevation, original.altitudeMeters) {
                case (nil, nil): true
                case (let read?, let written?): abs(read - written) <= 1e-3
                default: false
                }
                if !matches { failures.append("\(index): elevation \(point.elevation.map { "\($0)" } ?? "none")") }
            }
        }
        let differenceCount = failures.count
        #expect(differenceCount == 0, "first differences: \(failures.prefix(5))", sourceLocation: sourceLocation)
    }

    /// 180° and −180° are the same meridian; a value rounded to 180.0000000 may come back as either.
    static func longitudeDifference(_ first: Double, _ second: Double) -> Double {
        let difference = abs(first - second)
        return min(difference, abs(difference - 360))
    }

    @Test("GPX: every point, time and elevation, in the same tracks and segments")
    func gpx() throws {
        let readBack = try Self.roundTrip(.gpx, gpsbabelFormat: "gpx", dataFlag: "-t")
        try Self.expectSamePoints(readBack.trackPoints, times: true, elevations: true)
        #expect(readBack.tracks.map(\.name) == Self.tracks.map(\.name))
        #expect(readBack.tracks.map(\.segments.count) == Self.tracks.map(\.segments.count))
        let readCounts: [Int] = readBack.tracks.flatMap { $0.segments.map(\.count) }
        let counts: [Int] = Self.tracks.flatMap { $0.segments.map(\.count) }
        #expect(readCounts == counts)
    }

    @Test("KML gx:Track: every point, time and elevation; GPSBabel makes each gx:Track a track")
    func kml() throws {
        let readBack = try Self.roundTrip(.kml, gpsbabelFormat: "kml", dataFlag: "-t")
        try Self.expectSamePoints(readBack.trackPoints, times: true, elevations: true)
        let segmentNames: [String?] = Self.tracks.flatMap { track in track.segments.map { _ in track.name } }
        #expect(readBack.tracks.map(\.name) == segmentNames)
        let readCounts: [Int] = readBack.tracks.map { track in track.segments.reduce(0) { $0 + $1.count } }
        let counts: [Int] = Self.tracks.flatMap { $0.segments.map(\.count) }
        #expect(readCounts == counts)
    }

    @Test("CSV: every point, time, elevation, speed and course")
    func csv() throws {
        let readBack = try Self.roundTrip(.csv, gpsbabelFormat: "unicsv", dataFlag: "-t")
        let points = readBack.trackPoints + readBack.waypoints
        try Self.expectSamePoints(points, times: true, elevations: true)
        for (point, original) in zip(points, Self.locations) {
            // Our 3 decimals; GPSBabel writes 6.
            #expect((point.speed == nil) == (original.speedIfKnown == nil))
            if let speed = point.speed, let written = original.speedIfKnown { #expect(abs(speed - written) <= 0.5e-3 + 1e-6) }
            #expect((point.course == nil) == (original.courseIfKnown == nil))
            if let course = point.course, let written = original.courseIfKnown {
                #expect(Self.longitudeDifference(course, written) <= 0.5e-3 + 1e-6)
            }
        }
    }

    /// GPSBabel 1.8 reads GeoJSON Points as waypoints with their coordinates only: it ignores
    /// properties, and reads a fractional altitude as 0. The times and measurements are checked
    /// with Foundation in `WriterStructureTests.geoJSONReadBack`.
    @Test("GeoJSON: every point's coordinates, in order")
    func geojson() throws {
        let readBack = try Self.roundTrip(.geojson, gpsbabelFormat: "geojson", dataFlag: "-w")
        try Self.expectSamePoints(readBack.waypoints + readBack.trackPoints, times: false, elevations: false)
    }
}
