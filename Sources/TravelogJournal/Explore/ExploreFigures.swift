import Foundation
import TravelogCore
import TravelogGeocoding

/// Where I have been, in figures: the explored area (``ExploredCells``), per country with the local
/// days spent there (the journal's ``Whereabouts``), the cities with the most explored area, and for
/// one city its explored area and, where an OSM extract covers it, how much of its streets' length
/// was travelled. `travelog explore` and `GET /api/v1/explore` answer it.
///
/// A cell belongs to the country and city of the gazetteer place nearest to its block of about
/// 500 m (``blockDegrees``): a city is the land closer to it than to any other gazetteer place. A
/// country's share of its area comes from the world base's outlines (`countryAreas`); a city's, and
/// its districts', from the administrative boundaries of the OSM extracts added (``Outline``), where
/// an extract holds the whole outline: there the explored area is that of the cells inside it.
public struct ExploreFigures: Encodable, Hashable, Sendable {
    /// Cells are grouped in blocks of this many degrees for the gazetteer's lookups.
    public static let blockDegrees = 0.005
    /// A street counts as covered where a visited cell lies within this distance, metres.
    public static let streetReachMeters = 25.0
    /// How many cities ``cities`` lists.
    public static let cityLimit = 20

    public struct Country: Encodable, Hashable, Sendable {
        /// ISO 3166-1 alpha-2.
        public var code: String
        public var name: String?
        /// Local days with at least part of a visit there (as `/api/v1/whereabouts`).
        public var days: Int
        public var cells: Int
        public var areaSquareKilometers: Double
        /// The country's own area (the world base's outlines), km², where known.
        public var countryAreaSquareKilometers: Double?
        /// `areaSquareKilometers / countryAreaSquareKilometers`, 0 to 1, where the country's area is known.
        public var shareOfCountry: Double?
    }

    public struct City: Encodable, Hashable, Sendable {
        public var name: String
        public var administrativeArea: String?
        public var countryCode: String
        public var cells: Int
        public var areaSquareKilometers: Double
        /// The city's named streets (OSM extracts), `nil` where no extract covers the city.
        public var streets: Streets?
        /// The city's own administrative outline (an OSM extract's boundary of its name around it),
        /// `nil` where no extract holds it whole.
        public var outline: Outline?
        /// For the city asked for: its districts (the extracts' boundaries of the next level below
        /// the city's, or below 8 without an outline, that lie in it), most explored share first.
        public var districts: [Outline]?
    }

    /// An administrative area of an OSM extract and how much of it was explored.
    public struct Outline: Encodable, Hashable, Sendable {
        public var name: String
        /// OSM's `admin_level` (8: mostly a city; 9–11 its districts).
        public var adminLevel: Int
        /// Its area on the WGS84 ellipsoid, km².
        public var areaSquareKilometers: Double
        /// The explored cells whose middle lies inside it, km².
        public var exploredSquareKilometers: Double
        /// `exploredSquareKilometers / areaSquareKilometers`, 0 to 1.
        public var share: Double
    }

    public struct Streets: Encodable, Hashable, Sendable {
        /// Named street lines nearer to the city than to another gazetteer place.
        public var lines: Int
        public var lengthMeters: Double
        /// Length of those lines within ``ExploreFigures/streetReachMeters`` of a visited cell.
        public var coveredMeters: Double
        /// `coveredMeters / lengthMeters`, 0 to 1.
        public var share: Double
    }

    public var cellSizeMeters: Double
    public var cells: Int
    public var areaSquareKilometers: Double
    /// Countries by days, then area.
    public var countries: [Country]
    /// The cities with the most explored area (at most ``cityLimit``).
    public var cities: [City]
    /// The city asked for (`--city`, `?city=`), with its streets.
    public var city: City?
}

/// What ``ExploreFigures/compute(cells:whereabouts:geocoder:streets:city:)`` could not do.
public enum ExploreFiguresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No gazetteer place has this name.
    case unknownCity(String)
    /// Per-city figures need the gazetteer.
    case noGazetteer

    public var description: String {
        switch self {
        case let .unknownCity(name): "no city '\(name)' in the gazetteer"
        case .noGazetteer: "no gazetteer: cities are not known (make gazetteer, or --gazetteer)"
        }
    }
}

extension ExploreFigures {
    /// The figures of a person's explored cells.
    /// - Parameters:
    ///   - whereabouts: the local days per country (``JournalReader/whereabouts(userID:from:to:)``).
    ///   - geocoder: the gazetteer's reverse geocoder (`nil`: no countries or cities by area).
    ///   - streets: the OSM extracts' street lines (`nil`: no street figures).
    ///   - city: a gazetteer place's name (or ASCII name), any case.
    ///   - countryAreas: the countries' areas, km² (`WorldOutlines.countryAreas`), for each one's share.
    /// - Throws: ``ExploreFiguresError``.
    /// - Complexity: O(cells + blocks · log places), plus for a city O(its street length / 12.5 m).
    public static func compute(cells explored: ExploredCells, whereabouts: Whereabouts?, geocoder: ReverseGeocoder?,
                               streets: OSMReverseGeocoder?, city: String?,
                               countryAreas: [String: Double] = [:]) throws(ExploreFiguresError) -> ExploreFigures {
        var perCountry: [String: (cells: Int, area: Double)] = [:]
        var perPlace: [Int: (cells: Int, area: Double)] = [:]
        if let geocoder {
            var blocks: [UInt64: (cells: Int, area: Double, latitude: Double, longitude: Double)] = [:]
            explored.forEachCell { cell in
                let box = ExploredCells.bounds(of: cell)
                let row = ((box.south + box.north) / 2 / blockDegrees).rounded(.down)
                let column = ((box.west + box.east) / 2 / blockDegrees).rounded(.down)
                let key = UInt64(UInt32(bitPattern: Int32(row))) << 32 | UInt64(UInt32(bitPattern: Int32(column)))
                // The block's middle is looked up, whatever order the cells come in.
                blocks[key, default: (0, 0, (row + 0.5) * blockDegrees, (column + 0.5) * blockDegrees)].cells += 1
                blocks[key]!.area += ExploredCells.areaSquareMeters(of: cell)
            }
            for block in blocks.values {
                guard let coordinate = Coordinate(validLatitude: block.latitude, longitude: block.longitude),
                      let nearest = geocoder.nearest(to: coordinate) else { continue }
                let code = geocoder.gazetteer.country(at: nearest.placeIndex).code
                perCountry[code, default: (0, 0)].cells += block.cells
                perCountry[code]!.area += block.area
                perPlace[nearest.placeIndex, default: (0, 0)].cells += block.cells
                perPlace[nearest.placeIndex]!.area += block.area
            }
        }
        let days = Dictionary((whereabouts?.countries ?? []).map { ($0.code, $0.days) }, uniquingKeysWith: max)
        let names = Dictionary((geocoder?.gazetteer.countries ?? []).map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
        let countries = Set(days.keys).union(perCountry.keys).map { code in
            Country(code: code, name: names[code], days: days[code] ?? 0, cells: perCountry[code]?.cells ?? 0,
                    areaSquareKilometers: (perCountry[code]?.area ?? 0) / 1_000_000, countryAreaSquareKilometers: countryAreas[code],
                    shareOfCountry: countryAreas[code].flatMap { $0 > 0 ? min(1, (perCountry[code]?.area ?? 0) / 1_000_000 / $0) : nil })
        }.sorted { ($0.days, $0.areaSquareKilometers, $1.code) > ($1.days, $1.areaSquareKilometers, $0.code) }
        func cityFigures(_ index: Int, gazetteer: Gazetteer) -> City {
            City(name: gazetteer.name(at: index), administrativeArea: gazetteer.administrativeArea(at: index).nonEmpty,
                 countryCode: gazetteer.country(at: index).code, cells: perPlace[index]?.cells ?? 0,
                 areaSquareKilometers: (perPlace[index]?.area ?? 0) / 1_000_000)
        }
        var cities: [City] = []
        var cityIndexes: [Int] = []
        if let gazetteer = geocoder?.gazetteer {
            cityIndexes = perPlace.sorted { ($0.value.area, $1.key) > ($1.value.area, $0.key) }.prefix(cityLimit).map(\.key)
            cities = cityIndexes.map { cityFigures($0, gazetteer: gazetteer) }
        }
        var chosen: City?
        var chosenIndex: Int?
        if let city {
            guard let geocoder else { throw .noGazetteer }
            let gazetteer = geocoder.gazetteer
            let wanted = city.trimmingCharacters(in: .whitespaces).lowercased()
            let matches = (0..<gazetteer.count).filter {
                gazetteer.name(at: $0).lowercased() == wanted || gazetteer.asciiName(at: $0).lowercased() == wanted
            }
            // The one explored most, else the most populous.
            guard let index = matches.max(by: { ((perPlace[$0]?.area ?? 0), gazetteer.population(at: $0), -$0)
                                                < ((perPlace[$1]?.area ?? 0), gazetteer.population(at: $1), -$1) }) else {
                throw .unknownCity(city)
            }
            chosen = cityFigures(index, gazetteer: gazetteer)
            chosenIndex = index
            if let streets {
                let center = gazetteer.coordinate(at: index)
                let found = streets.coverage(isCovered: { explored.isExplored(near: $0.latitude, longitude: $0.longitude, withinMeters: streetReachMeters) }) { middle in
                    // A city reaches no farther than this; the lines beyond need no lookup.
                    abs(middle.latitude - center.latitude) < 0.5 && abs(middle.longitude - center.longitude) < 1
                        && geocoder.nearest(to: middle)?.placeIndex == index
                }
                if found.lines > 0 {
                    chosen?.streets = Streets(lines: found.lines, lengthMeters: found.lengthMeters, coveredMeters: found.coveredMeters,
                                              share: found.lengthMeters > 0 ? found.coveredMeters / found.lengthMeters : 0)
                }
            }
        }
        if let gazetteer = geocoder?.gazetteer, let boundaries = streets?.boundaries(), !boundaries.isEmpty {
            Self.addOutlines(to: &cities, indexes: cityIndexes, chosen: &chosen, chosenIndex: chosenIndex, boundaries: boundaries,
                             explored: explored, gazetteer: gazetteer, geocoder: geocoder)
        }
        return ExploreFigures(cellSizeMeters: ExploredCells.cellSizeMeters, cells: explored.count,
                              areaSquareKilometers: explored.areaSquareKilometers, countries: countries, cities: cities, city: chosen)
    }

    /// The outline of each city listed and of the one asked for, and that one's districts: the
    /// boundaries are matched by name around the gazetteer place (the level nearest 8 wins), and
    /// the explored cells are counted inside them in one pass.
    /// - Complexity: O(cells · outlines measured) bounding-box tests, plus the outlines' points per cell inside a box.
    static func addOutlines(to cities: inout [City], indexes cityIndexes: [Int], chosen: inout City?, chosenIndex: Int?, boundaries: [OSMBoundary],
                            explored: ExploredCells, gazetteer: Gazetteer, geocoder: ReverseGeocoder?) {
        func outline(of index: Int) -> Int? {
            let names = [gazetteer.name(at: index).lowercased(), gazetteer.asciiName(at: index).lowercased()]
            let place = gazetteer.coordinate(at: index)
            return boundaries.indices.filter { names.contains(boundaries[$0].name.lowercased())
                && boundaries[$0].contains(latitude: place.latitude, longitude: place.longitude) }
                .min { (abs(boundaries[$0].adminLevel - 8), -boundaries[$0].areaSquareKilometers, $0)
                       < (abs(boundaries[$1].adminLevel - 8), -boundaries[$1].areaSquareKilometers, $1) }
        }
        var measured: [Int] = []
        let cityOutlines = cityIndexes.map(outline(of:))
        measured += cityOutlines.compactMap { $0 }
        var chosenOutline: Int?
        var districts: [Int] = []
        if let chosenIndex {
            chosenOutline = outline(of: chosenIndex)
            let center = gazetteer.coordinate(at: chosenIndex)
            let level = chosenOutline.map { boundaries[$0].adminLevel } ?? 8
            let below = boundaries.indices.filter { index in
                let boundary = boundaries[index]
                guard boundary.adminLevel > level, abs(boundary.centroid.latitude - center.latitude) < 0.5,
                      abs(boundary.centroid.longitude - center.longitude) < 1 else { return false }
                if let chosenOutline { return boundaries[chosenOutline].contains(latitude: boundary.centroid.latitude, longitude: boundary.centroid.longitude) }
                return geocoder?.nearest(to: boundary.centroid)?.placeIndex == chosenIndex
            }
            // The next level down only: Helsinki's 10 (districts), not also their 11 (sub-districts).
            if let next = below.map({ boundaries[$0].adminLevel }).min() { districts = below.filter { boundaries[$0].adminLevel == next } }
            measured += (chosenOutline.map { [$0] } ?? []) + districts
        }
        let unique = Array(Set(measured)).sorted()
        guard !unique.isEmpty else { return }
        let slot = Dictionary(uniqueKeysWithValues: unique.enumerated().map { ($1, $0) })
        let south = unique.map { boundaries[$0].south }.min()!, north = unique.map { boundaries[$0].north }.max()!
        let west = unique.map { boundaries[$0].west }.min()!, east = unique.map { boundaries[$0].east }.max()!
        var inside = [Double](repeating: 0, count: unique.count)
        explored.forEachCell { cell in
            let box = ExploredCells.bounds(of: cell)
            let latitude = (box.south + box.north) / 2, longitude = (box.west + box.east) / 2
            guard latitude >= south, latitude <= north, longitude >= west, longitude <= east else { return }
            for (position, index) in unique.enumerated() where boundaries[index].contains(latitude: latitude, longitude: longitude) {
                inside[position] += ExploredCells.areaSquareMeters(of: cell)
            }
        }
        func figures(_ index: Int) -> Outline {
            let boundary = boundaries[index]
            let exploredArea = inside[slot[index]!] / 1_000_000
            return Outline(name: boundary.name, adminLevel: boundary.adminLevel, areaSquareKilometers: boundary.areaSquareKilometers,
                           exploredSquareKilometers: exploredArea,
                           share: boundary.areaSquareKilometers > 0 ? min(1, exploredArea / boundary.areaSquareKilometers) : 0)
        }
        for position in cities.indices { cities[position].outline = cityOutlines[position].map(figures) }
        if chosen != nil {
            chosen?.outline = chosenOutline.map(figures)
            chosen?.districts = districts.map(figures).sorted { ($0.share, $1.name) > ($1.share, $0.name) }
        }
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
