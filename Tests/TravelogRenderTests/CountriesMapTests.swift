import Foundation
import Testing
import TravelogCore
@testable import TravelogRender

/// The countries map (issue 33): the world base's rings carry their countries' codes, and a person's
/// days per country become a GeoJSON FeatureCollection and an image.
@Suite("The countries map")
struct CountriesMapTests {
    static let outlines = MapSnapshotterTests.outlines
    static var coded: Bool { !(outlines?.countries.isEmpty ?? true) }

    /// Whether a point lies inside a ring of `[longitude, latitude]` (ray casting; an independent test of the rings).
    static func inside(_ longitude: Double, _ latitude: Double, ring: [[Double]]) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for point in ring {
            if (point[1] > latitude) != (previous[1] > latitude),
               longitude < (previous[0] - point[0]) * (latitude - point[1]) / (previous[1] - point[1]) + point[0] {
                inside.toggle()
            }
            previous = point
        }
        return inside
    }

    /// Whether a point lies in a MultiPolygon: inside an outline and in none of its holes.
    static func inside(_ longitude: Double, _ latitude: Double, polygons: [[[[Double]]]]) -> Bool {
        polygons.contains { polygon in
            inside(longitude, latitude, ring: polygon[0]) && !polygon.dropFirst().contains { inside(longitude, latitude, ring: $0) }
        }
    }

    /// Twice the signed area of a GeoJSON ring, positive counter-clockwise.
    static func signedArea(_ ring: [[Double]]) -> Double {
        zip(ring, ring.dropFirst() + [ring[0]]).reduce(0) { $0 + $1.0[0] * $1.1[1] - $1.1[0] * $1.0[1] }
    }

    @Test("every ring of the world base names its country; Kosovo, France and Norway too (Natural Earth writes -99 for some)",
          .enabled(if: coded, "needs .build-data/world.tlworld in TLWORLD2 (make world)"))
    func codes() throws {
        let outlines = try #require(Self.outlines)
        #expect(outlines.countryCodes.allSatisfy { $0 != nil })
        #expect(outlines.countries.count > 170, "\(outlines.countries.count) countries")
        #expect(outlines.countries.isSuperset(of: ["FI", "FR", "NO", "XK", "ZA", "LS", "US", "RU", "AU", "BR"]))
    }

    @Test("days become features, most first, with RFC 7946 rings that hold their capitals; Lesotho is a hole in South Africa; a small country is said to have no outline",
          .enabled(if: coded, "needs .build-data/world.tlworld in TLWORLD2 (make world)"))
    func features() throws {
        let outlines = try #require(Self.outlines)
        let map = outlines.countriesMap(days: ["FI": 40, "FR": 3, "ZA": 7, "SG": 9, "NO": 0], names: ["FI": "Finland"])
        #expect(map.features.map(\.id) == ["FI", "ZA", "FR"])
        #expect(map.features.map(\.properties.days) == [40, 7, 3])
        #expect(map.features.first?.properties.name == "Finland" && map.features.last?.properties.name == nil)
        #expect(map.withoutOutline == ["SG"])
        #expect(map.mostDays == 40)
        for feature in map.features {
            for polygon in feature.geometry.coordinates {
                for (index, ring) in polygon.enumerated() {
                    #expect(ring.count >= 4 && ring.first == ring.last, "\(feature.id): a ring is closed")
                    // Outlines counter-clockwise, holes clockwise.
                    #expect((Self.signedArea(ring) > 0) == (index == 0), "\(feature.id): ring \(index)'s winding")
                }
            }
        }
        let byCode = Dictionary(uniqueKeysWithValues: map.features.map { ($0.id, $0.geometry.coordinates) })
        let finland = try #require(byCode["FI"]), france = try #require(byCode["FR"]), southAfrica = try #require(byCode["ZA"])
        #expect(Self.inside(24.94, 60.17, polygons: finland), "Helsinki")
        #expect(Self.inside(25.72, 66.50, polygons: finland), "Rovaniemi")
        #expect(!Self.inside(18.07, 59.33, polygons: finland), "Stockholm")
        #expect(Self.inside(2.35, 48.86, polygons: france), "Paris")
        #expect(Self.inside(28.04, -26.20, polygons: southAfrica), "Johannesburg")
        #expect(!Self.inside(27.48, -29.31, polygons: southAfrica), "Maseru, in Lesotho, a hole in South Africa")
        #expect(outlines.countriesMap(days: [:]).features.isEmpty && outlines.countriesMap(days: [:]).mostDays == 0)
    }

    @Test("each country's area on the ellipsoid is its published area within 5 % at 1:110m, Lesotho taken out of South Africa",
          .enabled(if: coded, "needs .build-data/world.tlworld in TLWORLD2 (make world)"))
    func areas() throws {
        let outlines = try #require(Self.outlines)
        let areas = outlines.countryAreas()
        // Published land and water areas, km² (France with French Guiana, as Natural Earth's outline of France has it).
        // The large within 5 %; the small within 15 % (measured: Lesotho -9 %, Switzerland +12 %, the 1:110m lines' doing).
        for (code, published) in [("FI", 338_455.0), ("ZA", 1_221_037), ("RU", 17_098_246), ("FR", 551_695 + 83_534),
                                  ("US", 9_833_520), ("AU", 7_692_024), ("LS", 30_355), ("CH", 41_285)] {
            let area = try #require(areas[code], "\(code) has an area")
            let tolerance = published > 300_000 ? 0.05 : 0.15
            #expect(abs(area - published) < tolerance * published, "\(code): \(Int(area)) km² against \(Int(published))")
        }
        #expect(areas.values.allSatisfy { $0 > 0 }, "no country has a negative area")
        // South Africa's outline less the hole where Lesotho is: its area is the outline's less Lesotho's.
        let southAfrica = try #require(outlines.polygons(of: "ZA").max { $0.count < $1.count })
        #expect(southAfrica.count >= 2, "South Africa's mainland has a hole")
        func area(_ ring: [Coordinate]) -> Double { abs(GeodesicPolygon(ring.dropLast()).measure().areaSquareMeters) / 1_000_000 }
        let outline = area(southAfrica[0]), hole = area(southAfrica[1]), lesotho = try #require(areas["LS"])
        #expect(abs(hole - lesotho) < 0.02 * lesotho, "the hole (\(Int(hole)) km²) is Lesotho (\(Int(lesotho)) km²)")
        #expect(abs((areas["ZA"] ?? 0) - (outline - hole)) < 1, "South Africa: its outline less the hole")
    }

    @Test("the image shades the countries with days and leaves the others as land",
          .enabled(if: coded, "needs .build-data/world.tlworld in TLWORLD2 (make world)"))
    func image() throws {
        let outlines = try #require(Self.outlines)
        let png = try outlines.countriesImage(days: ["FI": 30, "AU": 1], widthPixels: 800)
        let canvas = try Canvas(png: png)
        let width = canvas.widthPixels, pixels = canvas.rgbaBytes()
        let north = WebMercator.y(latitudeDegrees: 84), south = WebMercator.y(latitudeDegrees: -60)
        let projection = MapProjection(mapRect: MapRect(x: 0, y: north, width: MapRect.world.width, height: south - north), widthPixels: width)
        func pixel(_ latitude: Double, _ longitude: Double) -> (red: UInt8, green: UInt8, blue: UInt8) {
            let at = projection.point(for: Coordinate(validLatitude: latitude, longitude: longitude)!)
            let offset = (Int(at.y) * width + Int(at.x)) * 4
            return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
        }
        let land = WorldBaseStyle.land
        let finland = pixel(62.5, 26.0), australia = pixel(-25.0, 134.0), russia = pixel(57.0, 50.0)
        #expect(finland.blue > finland.red + 40, "Finland, 30 days: dark blue \(finland)")
        #expect(australia.blue > australia.red && australia.red > finland.red, "Australia, 1 day: light blue \(australia), lighter than Finland")
        #expect(abs(Double(russia.red) / 255 - land.red) < 0.02 && abs(Double(russia.blue) / 255 - land.blue) < 0.02, "Russia, no days: land \(russia)")
    }

    @Test("a TLWORLD1 file is read without codes (every country without outline); a code that is not two capitals is refused")
    func olderFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("countries-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ magic: String, code: [UInt8]?) throws -> String {
            var bytes = Array(magic.utf8)
            func u32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
            u32(1)
            u32(4)
            u32(4)
            if let code { bytes += code }
            for (longitude, latitude) in [(20.0, 60.0), (20.0, 61.0), (21.0, 61.0), (20.0, 60.0)] as [(Float, Float)] {
                u32(longitude.bitPattern)
                u32(latitude.bitPattern)
            }
            let path = folder.appendingPathComponent("\(magic)-\(code?.description ?? "none").tlworld").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let older = try WorldOutlines(contentsOf: try file("TLWORLD1", code: nil))
        #expect(older.ringCount == 1 && older.countries.isEmpty)
        #expect(older.countriesMap(days: ["FI": 2]).withoutOutline == ["FI"])
        let coded = try WorldOutlines(contentsOf: try file("TLWORLD2", code: Array("FI".utf8)))
        #expect(coded.countries == ["FI"] && coded.countriesMap(days: ["FI": 2]).features.count == 1)
        #expect(try WorldOutlines(contentsOf: try file("TLWORLD2", code: [0, 0])).countries.isEmpty)
        #expect(throws: RenderError.self) { try WorldOutlines(contentsOf: try file("TLWORLD2", code: Array("f1".utf8))) }
        // A TLWORLD2 header on a file without the codes is a wrong length, not a misread.
        #expect(throws: RenderError.self) { try WorldOutlines(contentsOf: try file("TLWORLD2", code: nil)) }
    }
}
