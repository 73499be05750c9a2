import Foundation
import TravelogCore

/// What OpenStreetMap data says is at a coordinate: the street address, the point of interest and
/// the named areas around it (`CLPlacemark`'s `thoroughfare`, `subThoroughfare`, `postalCode`,
/// `subLocality`, `areasOfInterest`).
public struct OSMStreetAddress: Hashable, Sendable {
    /// How the address was found.
    public enum Match: Hashable, Sendable {
        /// The coordinate is inside a building or other area that has the address.
        case inside
        /// The nearest address within ``OSMReverseGeocoder/addressRadiusMeters``.
        case nearestAddress
        /// No address near: the nearest named street within ``OSMReverseGeocoder/streetRadiusMeters``.
        case street
    }

    public let match: Match
    /// The street (`addr:street`, or the street's name for ``Match/street``).
    public let thoroughfare: String?
    /// The house number (`addr:housenumber`).
    public let subThoroughfare: String?
    public let postalCode: String?
    /// `addr:city`, when tagged.
    public let locality: String?
    /// `addr:suburb`, else `addr:district`, when tagged.
    public let subLocality: String?
    /// The named areas the coordinate is in (parks, buildings with a name, squares), smallest first.
    public let areasOfInterest: [String]
    /// The point of interest at the coordinate: the smallest area with a category around it, else
    /// the nearest one within ``OSMReverseGeocoder/pointOfInterestRadiusMeters``.
    public let pointOfInterest: PointOfInterest?
    /// Geodesic distance from the coordinate to the address point or street, metres (0 inside).
    public let distanceMeters: Double

    /// A named point of interest and its OSM category (`amenity=cafe`).
    public struct PointOfInterest: Hashable, Sendable {
        public let name: String
        public let category: String

        public init(name: String, category: String) {
            self.name = name
            self.category = category
        }
    }
}

/// Street-level reverse geocoding over the OSM places of the extracts added (``OSMPlaceSet``): a
/// coordinate on an address point (within 2 m: an entrance) gets its address; inside a building,
/// that building's address; otherwise the nearest address within 50 m; else the nearest named
/// street within 100 m; `nil` elsewhere (the gazetteer answers there).
///
/// Addresses and points of interest are points of a k-d tree (Earth-centred metres, exact geodesic
/// comparison as ``ReverseGeocoder`` does); areas and street segments are filed under a grid of
/// 0.002° cells (about 220 m of latitude), so a query tests only the few near it.
public struct OSMReverseGeocoder: Sendable {
    public static let addressRadiusMeters = 50.0
    public static let streetRadiusMeters = 100.0
    public static let pointOfInterestRadiusMeters = 25.0
    /// Closer than this to an address point, the coordinate is on it (its address wins over the building's).
    public static let onAddressMeters = 2.0
    static let cellDegrees = 0.002

    let places: [OSMPlace]
    private let addressTree: PointKDTree
    private let addressIndexes: [Int]
    let poiTree: PointKDTree
    let poiIndexes: [Int]
    /// Areas and streets by grid cell: indexes into `places`.
    let areaCells: [GridCell: [Int]]
    private let streetCells: [GridCell: [Int]]

    struct GridCell: Hashable, Sendable {
        let row: Int32, column: Int32

        init(_ coordinate: Coordinate) {
            row = Int32((coordinate.latitude / OSMReverseGeocoder.cellDegrees).rounded(.down))
            column = Int32((coordinate.longitude / OSMReverseGeocoder.cellDegrees).rounded(.down))
        }

        init(row: Int32, column: Int32) {
            self.row = row
            self.column = column
        }
    }

    /// The extracts indexed, as "Helsinki.osm.pbf 2834, …" (what a journal entry was described with).
    public let sources: String

    /// Indexes every distinct place of the set.
    /// - Complexity: O(n log n) for n places, plus the points of areas and streets.
    public init(places set: OSMPlaceSet) {
        sources = set.files.map { "\($0.sourceName) \($0.count)" }.joined(separator: ", ")
        var places: [OSMPlace] = []
        set.forEachPlace { file, index in places.append(set.files[file].place(at: index)) }
        self.places = places
        var addressIndexes: [Int] = [], poiIndexes: [Int] = []
        var areaCells: [GridCell: [Int]] = [:], streetCells: [GridCell: [Int]] = [:]
        for (index, place) in places.enumerated() {
            if place.kind.contains(.address) { addressIndexes.append(index) }
            if place.kind.contains(.pointOfInterest) { poiIndexes.append(index) }
            if place.kind.contains(.area) || place.kind.contains(.street) {
                let points = place.geometry.joined()
                guard let first = points.first else { continue }
                var low = GridCell(first), high = low
                for point in points {
                    let cell = GridCell(point)
                    low = GridCell(row: min(low.row, cell.row), column: min(low.column, cell.column))
                    high = GridCell(row: max(high.row, cell.row), column: max(high.column, cell.column))
                }
                guard Int(high.row - low.row + 1) * Int(high.column - low.column + 1) <= 10_000 else { continue }  // a huge area: not a street address
                for row in low.row...high.row {
                    for column in low.column...high.column {
                        if place.kind.contains(.area) { areaCells[GridCell(row: row, column: column), default: []].append(index) }
                        if place.kind.contains(.street) { streetCells[GridCell(row: row, column: column), default: []].append(index) }
                    }
                }
            }
        }
        self.addressIndexes = addressIndexes
        self.poiIndexes = poiIndexes
        addressTree = PointKDTree(points: addressIndexes.map { ReverseGeocoder.earthCenteredPoint(places[$0].coordinate) })
        poiTree = PointKDTree(points: poiIndexes.map { ReverseGeocoder.earthCenteredPoint(places[$0].coordinate) })
        self.areaCells = areaCells
        self.streetCells = streetCells
    }

    /// The number of distinct places indexed.
    public var count: Int { places.count }

    /// What OSM says is at `coordinate`, `nil` when no extract has an address or street near it.
    /// - Complexity: O(log n) for the trees plus the areas and street segments of nine grid cells.
    public func address(for coordinate: Coordinate) -> OSMStreetAddress? {
        let containing = (areaCells[GridCell(coordinate)] ?? []).filter { Self.contains(places[$0].geometry, coordinate) }
            .sorted { Self.boxArea(places[$0].geometry) < Self.boxArea(places[$1].geometry) }
        let areasOfInterest = containing.compactMap { places[$0].name }
        let poi = containing.first(where: { places[$0].kind.contains(.pointOfInterest) })
            ?? nearest(in: poiTree, poiIndexes, to: coordinate, withinMeters: Self.pointOfInterestRadiusMeters)?.index
        let pointOfInterest = poi.flatMap { index in
            places[index].name.flatMap { name in places[index].category.map { OSMStreetAddress.PointOfInterest(name: name, category: $0) } }
        }
        let near = nearest(in: addressTree, addressIndexes, to: coordinate, withinMeters: Self.addressRadiusMeters)
        // On an address node (an entrance inside a building with several): that node's address.
        if let near, near.distanceMeters <= Self.onAddressMeters {
            return address(of: places[near.index], match: .nearestAddress, distanceMeters: near.distanceMeters, areas: areasOfInterest,
                           pointOfInterest: pointOfInterest)
        }
        if let building = containing.first(where: { places[$0].kind.contains(.address) }) {
            return address(of: places[building], match: .inside, distanceMeters: 0, areas: areasOfInterest, pointOfInterest: pointOfInterest)
        }
        if let near {
            return address(of: places[near.index], match: .nearestAddress, distanceMeters: near.distanceMeters, areas: areasOfInterest,
                           pointOfInterest: pointOfInterest)
        }
        if let street = nearestStreet(to: coordinate) {
            return OSMStreetAddress(match: .street, thoroughfare: places[street.index].name, subThoroughfare: nil, postalCode: nil, locality: nil,
                                    subLocality: nil, areasOfInterest: areasOfInterest, pointOfInterest: pointOfInterest,
                                    distanceMeters: street.distanceMeters)
        }
        return nil
    }

    private func address(of place: OSMPlace, match: OSMStreetAddress.Match, distanceMeters: Double, areas: [String],
                         pointOfInterest: OSMStreetAddress.PointOfInterest?) -> OSMStreetAddress {
        OSMStreetAddress(match: match, thoroughfare: place[tag: "addr:street"] ?? place[tag: "addr:place"], subThoroughfare: place[tag: "addr:housenumber"],
                         postalCode: place[tag: "addr:postcode"], locality: place[tag: "addr:city"],
                         subLocality: place[tag: "addr:suburb"] ?? place[tag: "addr:district"], areasOfInterest: areas,
                         pointOfInterest: pointOfInterest, distanceMeters: distanceMeters)
    }

    /// The nearest point of a tree within a radius, by geodesic distance (ties: the lower index).
    private func nearest(in tree: PointKDTree, _ indexes: [Int], to coordinate: Coordinate, withinMeters radius: Double) -> (index: Int, distanceMeters: Double)? {
        // The chord is never longer than the geodesic: no point is within `radius` unless the nearest
        // by chord is, and none is nearer along the surface than the nearest by chord's geodesic
        // distance unless its chord is shorter. So one geodesic, and one more for each point within
        // that bound (as `ReverseGeocoder.nearest` does), instead of one for every point within
        // `radius`: a street of addresses has dozens within 50 m.
        let query = ReverseGeocoder.earthCenteredPoint(coordinate)
        guard let first = tree.nearest(to: query), first.squaredDistance <= radius * radius else { return nil }
        let firstDistance = coordinate.distanceMeters(to: places[indexes[first.index]].coordinate)
        var best: (index: Int, distanceMeters: Double)? = firstDistance <= radius ? (indexes[first.index], firstDistance) : nil
        let bound = min(radius, firstDistance)
        tree.forEach(within: bound * bound, of: query) { position, _ in
            guard position != first.index else { return }
            let index = indexes[position]
            let distance = coordinate.distanceMeters(to: places[index].coordinate)
            guard distance <= radius else { return }
            if best == nil || distance < best!.distanceMeters || (distance == best!.distanceMeters && index < best!.index) {
                best = (index, distance)
            }
        }
        return best
    }

    /// The nearest named street within ``streetRadiusMeters``: distances to segments in a local
    /// plane (equirectangular, metres; exact enough at 100 m), cells around the coordinate.
    private func nearestStreet(to coordinate: Coordinate) -> (index: Int, distanceMeters: Double)? {
        let cell = GridCell(coordinate)
        var seen = Set<Int>()
        var best: (index: Int, distanceMeters: Double)?
        let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
        let scale = cos(coordinate.latitude * .pi / 180)
        func plane(_ point: Coordinate) -> (Double, Double) {
            ((point.longitude - coordinate.longitude) * scale * metersPerDegree, (point.latitude - coordinate.latitude) * metersPerDegree)
        }
        for row in (cell.row - 1)...(cell.row + 1) {
            for column in (cell.column - 1)...(cell.column + 1) {
                for index in streetCells[GridCell(row: row, column: column)] ?? [] where seen.insert(index).inserted {
                    for line in places[index].geometry {
                        for (a, b) in zip(line, line.dropFirst().isEmpty ? line : Array(line.dropFirst())) {
                            let distance = Self.segmentDistance(plane(a), plane(b))
                            if distance <= Self.streetRadiusMeters, best == nil || distance < best!.distanceMeters { best = (index, distance) }
                        }
                    }
                }
            }
        }
        return best
    }

    /// Distance from the origin to the segment a–b in the plane.
    static func segmentDistance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? max(0, min(1, -(a.0 * dx + a.1 * dy) / lengthSquared)) : 0
        let x = a.0 + t * dx, y = a.1 + t * dy
        return (x * x + y * y).squareRoot()
    }

    /// Whether a point is inside rings (even-odd rule: holes are not among an area's rings here).
    static func contains(_ rings: [[Coordinate]], _ point: Coordinate) -> Bool {
        var inside = false
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let longitude = a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                if point.longitude < longitude { inside.toggle() }
            }
        }
        return inside
    }

    /// The area of the rings' bounding box in square degrees (to order nested areas: smallest first).
    static func boxArea(_ rings: [[Coordinate]]) -> Double {
        let points = rings.joined()
        guard let first = points.first else { return 0 }
        var (south, north, west, east) = (first.latitude, first.latitude, first.longitude, first.longitude)
        for point in points {
            south = min(south, point.latitude); north = max(north, point.latitude)
            west = min(west, point.longitude); east = max(east, point.longitude)
        }
        return (north - south) * (east - west)
    }
}
