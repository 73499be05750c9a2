import Foundation
import Testing
import TravelogTestSupport

/// One row of numbers from a geodesic test file, with where it came from.
struct GeodesicRow: Sendable, CustomTestStringConvertible {
    var section: String
    var lineNumber: Int
    var values: [Double]
    var text: String

    var testDescription: String { "line \(lineNumber) (\(section)): \(text)" }
    subscript(_ index: Int) -> Double { values[index] }
}

/// A polygon and what GeographicLib's Planimeter says about it.
struct PlanimeterPolygon: Sendable, CustomTestStringConvertible {
    var title: String
    var vertices: [(latitude: Double, longitude: Double)]
    var expectedVertexCount: Int
    var expectedPerimeterMeters: Double
    var expectedAreaSquareMeters: Double

    var testDescription: String { title }
}

/// Reads the geodesic vectors: the files committed in Tests/TravelogCoreTests/Fixtures (made once
/// with GeodSolve and Planimeter by scripts/generate-geodesic-fixtures.py) and Karney's reference
/// rows in the shared fixtures.
enum GeodesicFixtures {
    /// Rows of a committed vector file; '#' lines name the section of the rows that follow.
    static func committedRows(_ name: String) -> [GeodesicRow] {
        rows(at: SharedFixtures.ownFixture("TravelogCoreTests/Fixtures/\(name)"))
    }

    /// Karney's GeodTest rows `lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 m12 S12` (exact values
    /// computed with high-precision arithmetic); empty when the shared fixtures are absent.
    static var karneyRows: [GeodesicRow] {
        rows(at: SharedFixtures.url("geographiclib/GeodTest-100.part1-rows1-67.dat"), section: "GeodTest")
    }

    static func rows(at url: URL, section initialSection: String = "") -> [GeodesicRow] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var section = initialSection, rows: [GeodesicRow] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("#") {
                section = line.dropFirst().trimmingCharacters(in: .whitespaces)
                continue
            }
            let values = line.split(whereSeparator: { $0 == " " }).compactMap { Double($0) }
            guard !values.isEmpty else { continue }
            rows.append(GeodesicRow(section: section, lineNumber: index + 1, values: values, text: String(line)))
        }
        return rows
    }

    /// The polygons of geodesic-polygons.txt.
    static var planimeterPolygons: [PlanimeterPolygon] {
        let url = SharedFixtures.ownFixture("TravelogCoreTests/Fixtures/geodesic-polygons.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var polygons: [PlanimeterPolygon] = [], title = "", vertices: [(latitude: Double, longitude: Double)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if line.hasPrefix("#") {
                title = line.dropFirst().trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("="), fields.count == 4,
                      let count = Int(fields[1]), let perimeter = Double(fields[2]), let area = Double(fields[3]) {
                polygons.append(PlanimeterPolygon(title: title, vertices: vertices, expectedVertexCount: count,
                                                  expectedPerimeterMeters: perimeter, expectedAreaSquareMeters: area))
                vertices = []
            } else if fields.count == 2, let latitude = Double(fields[0]), let longitude = Double(fields[1]) {
                vertices.append((latitude, longitude))
            }
        }
        return polygons
    }

    /// The smaller difference between two angles in degrees, modulo 360.
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }
}
