import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// The `EXPECTED_GPX_SUMMARY.json` figures in ../shared/fixtures (computed for Travelog with
/// Python's xml.etree and geographiclib): counts exactly, bounds to 1e-9°, lengths to 1e-6 relative.
@Suite("GPX files against EXPECTED_GPX_SUMMARY.json", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct GPXSummaryConformanceTests {
    struct Expectation: CustomTestStringConvertible, Sendable {
        var path: String
        var summary: [String: JSONValue]
        var testDescription: String { path }
    }

    /// A JSON value, decoded loosely (the summary files mix numbers, strings, objects and null).
    enum JSONValue: Sendable {
        case number(Double), string(String), object([String: JSONValue]), null
        init(_ any: Any) {
            switch any {
            case let number as NSNumber: self = .number(number.doubleValue)
            case let string as String: self = .string(string)
            case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init))
            default: self = .null
            }
        }
        var number: Double? { if case .number(let value) = self { value } else { nil } }
        var string: String? { if case .string(let value) = self { value } else { nil } }
        subscript(key: String) -> JSONValue? { if case .object(let object) = self { object[key] } else { nil } }
    }

    static var expectations: [Expectation] {
        guard SharedFixtures.available else { return [] }
        var result: [Expectation] = []
        for folder in ["dawarich", "gpsbabel", "gpxpy", "reitti", "trackintel-geolife"] {
            let url = SharedFixtures.url("\(folder)/EXPECTED_GPX_SUMMARY.json")
            guard let data = try? Data(contentsOf: url),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let files = object["files"] as? [String: [String: Any]] else { continue }
            for (file, summary) in files.sorted(by: { $0.key < $1.key }) {
                result.append(Expectation(path: "\(folder)/\(file)", summary: summary.mapValues(JSONValue.init)))
            }
        }
        return result
    }

    @Test("counts, times, bounds and geodesic lengths are reproduced", arguments: expectations)
    func summary(expectation: Expectation) throws {
        let summary = expectation.summary
        if summary["parse_error"] != nil {
            // Python's expat refuses these; Travelog reads them (white space before the XML
            // declaration is harmless). The point count was taken from the file itself.
            let result = try FileReading.readShared(expectation.path, format: .gpx)
            #expect(!result.trackPoints.isEmpty)
            return
        }
        let result = try FileReading.readShared(expectation.path, format: .gpx)
        let points = result.trackPoints
        let timedCount: Int = points.filter { $0.position.location != nil }.count
        let withElevation: Int = points.filter { $0.position.altitudeMeters != nil }.count
        let waypoints: Int = result.points.filter { $0.kind == .waypoint }.count
        let routePoints: Int = result.points.filter { (point: FormatPoint) -> Bool in if case .route = point.kind { true } else { false } }.count
        #expect(Double(points.count) == summary["trkpt"]?.number)
        #expect(Double(timedCount) == summary["trkpt_with_time"]?.number)
        #expect(Double(withElevation) == summary["trkpt_with_ele"]?.number)
        #expect(Double(waypoints) == summary["wpt"]?.number)
        #expect(Double(routePoints) == summary["rtept"]?.number)

        var segments: [FormatPoint.Kind: [Coordinate]] = [:]
        var order: [FormatPoint.Kind] = []
        for point in points {
            if segments[point.kind] == nil { order.append(point.kind) }
            segments[point.kind, default: []].append(point.position.coordinate)
        }
        #expect(Double(order.count) == summary["trkseg_nonempty"]?.number)
        let length = order.reduce(0.0) { total, kind in
            let coordinates = segments[kind] ?? []
            return total + zip(coordinates, coordinates.dropFirst()).reduce(0.0) { $0 + $1.0.distanceMeters(to: $1.1) }
        }
        let expectedLength = try #require(summary["length_2d_wgs84_geodesic_m"]?.number)
        // The summary rounds lengths to the millimetre.
        #expect(abs(length - expectedLength) <= max(1e-6 * expectedLength, 0.0015), "length \(length) m")

        if let bounds = summary["trkpt_bounds"], let minimumLatitude = bounds["minlat"]?.number {
            let latitudes = points.map(\.position.coordinate.latitude), longitudes = points.map(\.position.coordinate.longitude)
            #expect(abs((latitudes.min() ?? .nan) - minimumLatitude) <= 1e-9)
            #expect(abs((latitudes.max() ?? .nan) - (bounds["maxlat"]?.number ?? .nan)) <= 1e-9)
            #expect(abs((longitudes.min() ?? .nan) - (bounds["minlon"]?.number ?? .nan)) <= 1e-9)
            #expect(abs((longitudes.max() ?? .nan) - (bounds["maxlon"]?.number ?? .nan)) <= 1e-9)
        }
        let timed = points.compactMap(\.position.location).map(\.timestamp)
        if let first = summary["first_trkpt_time_utc"]?.string {
            #expect(timed.min().map { Self.iso($0) } == first)
            #expect(timed.max().map { Self.iso($0) } == summary["last_trkpt_time_utc"]?.string)
        }
    }

    /// The summary's time format: seconds, plus milliseconds when there are any, then `Z`.
    static func iso(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let formatter = ISO8601DateFormatter()
        let base = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0))))
        guard seconds.remainder != 0 else { return base }
        let fraction = String(format: "%03d", (seconds.remainder + 1000) % 1000)
        return String(base.dropLast()) + "." + fraction + "Z"
    }
}
