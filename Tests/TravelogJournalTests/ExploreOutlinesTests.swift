import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogJournal
import TravelogTestSupport

/// A city's share of its area, and its districts', from an extract's administrative boundaries.
@Suite("Explore: a city's and its districts' share of their area")
struct ExploreOutlinesTests {
    /// The gazetteer's Testville, in the middle of its square outline.
    static let center = Coordinate(validLatitude: 60.01, longitude: 25.01)!

    static func gazetteer() throws -> Gazetteer {
        let finland = try GazetteerCountry(code: "FI", alpha3Code: "FIN", name: "Finland")
        let testville = GazetteerPlace(name: "Testville", asciiName: "Testville", administrativeArea: "", subAdministrativeArea: "",
                                       country: finland, timeZoneIdentifier: "Europe/Helsinki", population: 10_000, coordinate: center)
        return try Gazetteer(bytes: Gazetteer.encode([testville]), path: "test-gazetteer")
    }

    static func square(south: Double, west: Double, north: Double, east: Double) -> [Coordinate] {
        [(south, west), (south, east), (north, east), (north, west), (south, west)].map { Coordinate(validLatitude: $0.0, longitude: $0.1)! }
    }

    static func boundary(_ id: Int64, _ name: String, level: Int, _ ring: [Coordinate]) -> OSMPlace {
        OSMPlace(elementType: .relation, id: id, kind: .boundary, coordinate: Coordinate(validLatitude: ring.dropLast().map(\.latitude).reduce(0, +) / 4,
                                                                                          longitude: ring.dropLast().map(\.longitude).reduce(0, +) / 4)!,
                 category: nil, tags: [("name", name), ("admin_level", String(level))], geometry: [ring])
    }

    /// Testville's outline (0.02° square, level 8), its west and east halves (10), a quarter of the west (11),
    /// and another Testville far away that does not hold the gazetteer's place.
    static func extract() throws -> OSMReverseGeocoder {
        let places = [
            boundary(1, "Testville", level: 8, square(south: 60, west: 25, north: 60.02, east: 25.02)),
            boundary(2, "West", level: 10, square(south: 60, west: 25, north: 60.02, east: 25.01)),
            boundary(3, "East", level: 10, square(south: 60, west: 25.01, north: 60.02, east: 25.02)),
            boundary(4, "Corner", level: 11, square(south: 60, west: 25, north: 60.01, east: 25.01)),
            boundary(5, "Testville", level: 8, square(south: 61, west: 26, north: 61.5, east: 27)),
        ]
        let file = try OSMPlacesFile(bytes: OSMPlacesFile.encode(places, sourceName: "test.osm.pbf", boundingBox: nil))
        return OSMReverseGeocoder(places: OSMPlaceSet(files: [file]))
    }

    @Test("a walk in the west half: Testville's explored share is the cells inside counted another way; West leads its districts, East is 0, the level 11 quarter is not listed")
    func cityAndDistricts() throws {
        var explored = ExploredCells()
        // A walk from the west edge to just short of the middle, a fix every 10 s at 1.4 m/s, and a stretch beyond the city.
        var seconds = 0.0
        for step in 0...40 {
            explored.append(latitude: 60.012, longitude: 25.0005 + Double(step) * 0.0002, seconds: seconds, device: 0)
            seconds += 10
        }
        explored.append(latitude: 60.03, longitude: 25.005, seconds: seconds + 7200, device: 0)  // outside, after a silence
        let gazetteer = try Self.gazetteer()
        let figures = try ExploreFigures.compute(cells: explored, whereabouts: nil, geocoder: ReverseGeocoder(gazetteer: gazetteer),
                                                 streets: try Self.extract(), city: "testville")
        let city = try #require(figures.city)
        let outline = try #require(city.outline)
        // Counted another way: every cell's middle tested against the square directly.
        var inside = 0.0, insideWest = 0.0
        explored.forEachCell { cell in
            let box = ExploredCells.bounds(of: cell)
            let latitude = (box.south + box.north) / 2, longitude = (box.west + box.east) / 2
            guard latitude > 60, latitude < 60.02, longitude > 25, longitude < 25.02 else { return }
            inside += ExploredCells.areaSquareMeters(of: cell)
            if longitude < 25.01 { insideWest += ExploredCells.areaSquareMeters(of: cell) }
        }
        #expect(inside > 0 && inside < explored.areaSquareMeters)
        #expect(abs(outline.exploredSquareKilometers - inside / 1_000_000) < 1e-9)
        #expect(outline.name == "Testville" && outline.adminLevel == 8)
        // The ellipsoid's closed form; the outline's east-west edges are geodesics, a few centimetres off the parallels.
        let expectedArea = ellipsoidQuadrangleSquareKilometers(south: 60, north: 60.02, westToEastDegrees: 0.02)
        #expect(abs(outline.areaSquareKilometers - expectedArea) / expectedArea < 1e-4)
        #expect(abs(outline.share - outline.exploredSquareKilometers / outline.areaSquareKilometers) < 1e-12)
        let districts = try #require(city.districts)
        #expect(districts.map(\.name) == ["West", "East"])
        #expect(districts.allSatisfy { $0.adminLevel == 10 })
        #expect(abs(districts[0].exploredSquareKilometers - insideWest / 1_000_000) < 1e-9)
        #expect(districts[1].exploredSquareKilometers == 0 && districts[1].share == 0)
        #expect(districts[0].share > outline.share)
        // The list of cities carries the outline too; without an extract, none.
        #expect(figures.cities.first?.outline == outline)
        let without = try ExploreFigures.compute(cells: explored, whereabouts: nil, geocoder: ReverseGeocoder(gazetteer: gazetteer),
                                                 streets: nil, city: "testville")
        #expect(without.city?.outline == nil && without.city?.districts == nil)
    }

    @Test("a city without an outline of its own lists the districts nearest to it; an extract without boundaries gives neither")
    func districtsWithoutCityOutline() throws {
        var explored = ExploredCells()
        explored.append(latitude: 60.015, longitude: 25.015, seconds: 0, device: 0)
        let places = [Self.boundary(2, "West", level: 10, Self.square(south: 60, west: 25, north: 60.02, east: 25.01)),
                      Self.boundary(3, "East", level: 10, Self.square(south: 60, west: 25.01, north: 60.02, east: 25.02))]
        let file = try OSMPlacesFile(bytes: OSMPlacesFile.encode(places, sourceName: "districts.osm.pbf", boundingBox: nil))
        let figures = try ExploreFigures.compute(cells: explored, whereabouts: nil, geocoder: ReverseGeocoder(gazetteer: try Self.gazetteer()),
                                                 streets: OSMReverseGeocoder(places: OSMPlaceSet(files: [file])), city: "Testville")
        #expect(figures.city?.outline == nil)
        #expect(figures.city?.districts?.map(\.name) == ["East", "West"])
        #expect((figures.city?.districts?.first?.exploredSquareKilometers ?? 0) > 0)
    }
}
