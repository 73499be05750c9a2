import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// GeoJSON and Overland files from other projects (../shared/fixtures); the values checked here
/// were read off the files by hand.
@Suite("GeoJSONReader on real files", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct GeoJSONFixtureTests {
    static func read(_ relativePath: String) throws -> GeoJSONReading {
        let text = try String(contentsOf: SharedFixtures.url(relativePath), encoding: .utf8)
        return try GeoJSONReading(text)
    }

    @Test("the files are detected as GeoJSON and read through FileFormat.makeReader", arguments: [
        "dawarich/geojson/export.json", "dawarich/geojson/gpslogger_example.json", "dawarich/overland/geodata.json",
        "overland/readme_example.json", "gpsbabel/geojson/geojson.geojson", "gpsbabel/export/segmented_tracks.expected.geojson",
    ])
    func detectedAndRead(path: String) throws {
        let viaDetection = try FileReading.readShared(path)
        #expect(viaDetection.format == .geojson)
        #expect(viaDetection.records == (try Self.read(path)).records)
        #expect(viaDetection.rejections.isEmpty)
    }

    @Test("Dawarich's export: 10 points with coordinates in strings, epoch-second timestamps (Dawarich expects 10)")
    func dawarichExport() throws {
        let reading = try Self.read("dawarich/geojson/export.json")
        #expect(reading.records.count == 10)
        #expect(reading.points.allSatisfy { $0.kind == .track(track: 0, segment: 0) })
        let first = try #require(reading.points.first?.position.location)
        #expect(first == Location(coordinate: try Coordinate(latitude: 0.1, longitude: 0.1), altitudeMeters: 1,
                                  horizontalAccuracyMeters: 1, verticalAccuracyMeters: 1,
                                  timestamp: Date(timeIntervalSince1970: 1_609_459_201)))
        let last = try #require(reading.points.last?.position.location)
        #expect(last.coordinate == (try Coordinate(latitude: 1.0, longitude: 1.0)))
        #expect(last.timestamp == Date(timeIntervalSince1970: 1_609_459_210))
    }

    @Test("GPSLogger's GeoJSON: the ISO time with its +07:00 offset wins over time_long")
    func gpsLogger() throws {
        let reading = try Self.read("dawarich/geojson/gpslogger_example.json")
        let location = try #require(reading.points.first?.position.location)
        #expect(reading.records.count == 1)
        #expect(location.coordinate == (try Coordinate(latitude: 10.758321212464024, longitude: 106.64234449272531)))
        #expect(location.altitudeMeters == 17.634344400269068)
        #expect(location.horizontalAccuracyMeters == 4.7551565)
        #expect(location.speedMetersPerSecond == 1.2)
        #expect(location.utcOffsetSeconds == 25_200)
        #expect(abs(location.timestamp.timeIntervalSince1970 - 1_730_626_211.331) < 1e-6)  // Date holds a Double: 1 µs
    }

    @Test("Overland's README batch and Dawarich's Overland file: one point each; the will_terminate event is skipped",
          arguments: ["overland/readme_example.json", "dawarich/overland/geodata.json"])
    func overland(path: String) throws {
        let reading = try Self.read(path)
        #expect(reading.points == [FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(Location(
            coordinate: try Coordinate(latitude: 37.3318, longitude: -122.030581), altitudeMeters: 0,
            horizontalAccuracyMeters: 30, verticalAccuracyMeters: -1, speedMetersPerSecond: 4,
            timestamp: Date(timeIntervalSince1970: 1_443_711_600), utcOffsetSeconds: -25_200)))])
        #expect(reading.records.count == 1)
        #expect(reading.skipped == (path.hasPrefix("dawarich") ? [.overlandAction("will_terminate"): 1] : [:]))
    }

    /// The points of a GPX file in order, grouped by the `wpt`, `rte` or `trk` they belong to.
    static func gpxGroups(_ relativePath: String) throws -> [(element: String, points: [[Double]])] {
        let text = try String(contentsOf: SharedFixtures.url(relativePath), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<(wpt|rtept|trkpt|rte|trk)\b(?: lat="([-0-9.]+)" lon="([-0-9.]+)")?"#)
        var groups: [(element: String, points: [[Double]])] = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            func group(_ index: Int) -> String? { Range(match.range(at: index), in: text).map { String(text[$0]) } }
            switch group(1) {
            case "rte", "trk": groups.append((group(1) ?? "", []))
            case "wpt": groups.append(("wpt", [[Double(group(2) ?? "") ?? .nan, Double(group(3) ?? "") ?? .nan]]))
            default: groups[groups.count - 1].points.append([Double(group(2) ?? "") ?? .nan, Double(group(3) ?? "") ?? .nan])
            }
        }
        return groups
    }

    @Test("GPSBabel's geojson.geojson: the points GPSBabel reads, without the areas it reads as routes")
    func gpsBabelGeometries() throws {
        let reading = try Self.read("gpsbabel/geojson/geojson.geojson")
        let expected = try Self.gpxGroups("gpsbabel/geojson/geojson.expected.gpx")
        // GPSBabel makes the two areas routes whose last point closes the ring; Travelog skips them.
        let areas = expected.filter { $0.element == "rte" && $0.points.count > 2 && $0.points.first == $0.points.last }
        #expect(areas.count == 2)
        #expect(reading.skipped == [.area("Polygon"): 1, .area("MultiPolygon"): 1])
        let waypoints = reading.points.filter { $0.kind == .waypoint }
            .map { [$0.position.coordinate.latitude, $0.position.coordinate.longitude] }
        #expect(waypoints == expected.filter { $0.element == "wpt" }.flatMap(\.points))
        // GPSBabel: the LineString is a route and each line of the MultiLineString a track; here the
        // LineString is track 0 and the MultiLineString track 1 with one segment per line.
        let lines = expected.filter { $0.element != "wpt" && !areas.map(\.points).contains($0.points) }.map(\.points)
        var segments: [FormatPoint.Kind: [[Double]]] = [:]
        var order: [FormatPoint.Kind] = []
        for point in reading.points where point.kind != .waypoint {
            if segments[point.kind] == nil { order.append(point.kind) }
            segments[point.kind, default: []].append([point.position.coordinate.latitude, point.position.coordinate.longitude])
        }
        #expect(order == [.track(track: 0, segment: 0), .track(track: 1, segment: 0), .track(track: 1, segment: 1),
                          .track(track: 1, segment: 2)])
        #expect(order.compactMap { segments[$0] } == lines)
        #expect(reading.points.allSatisfy { $0.position.location == nil })
    }

    @Test("GPSBabel's GeoJSON of segmented_tracks.gpx: two untimed LineStrings with the GPX's track points in order")
    func gpsBabelSegmentedTracks() throws {
        let reading = try Self.read("gpsbabel/export/segmented_tracks.expected.geojson")
        let gpx = try Self.gpxGroups("gpsbabel/export/segmented_tracks.gpx").filter { $0.element == "trk" }
        #expect(gpx.map { $0.points.count } == [23, 23])
        #expect(reading.points.count == 46)
        for (track, group) in gpx.enumerated() {
            let points = group.points
            let ours = reading.points.filter { $0.kind == .track(track: track, segment: 0) }
            #expect(ours.count == points.count)
            for (point, expected) in zip(ours, points) {
                // GPSBabel wrote the GeoJSON with 9 decimals, as in the GPX: the same decimal digits.
                #expect(abs(point.position.coordinate.latitude - expected[0]) < 1e-9)
                #expect(abs(point.position.coordinate.longitude - expected[1]) < 1e-9)
            }
        }
        #expect(reading.points.first?.position.coordinate == (try Coordinate(latitude: 35.826145641, longitude: -86.84413961)))
    }
}
