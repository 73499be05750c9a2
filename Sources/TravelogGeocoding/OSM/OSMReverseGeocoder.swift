import Foundation
import Synchronization
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
        /// No address or street near, but inside named areas (the middle of a park or a square) or
        /// at a point of interest: those alone.
        case area
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
/// street within 100 m; else, inside a named area (a park's middle), the area alone; `nil` elsewhere
/// (the gazetteer answers there).
///
/// Addresses and points of interest are points of a k-d tree (Earth-centred metres, exact geodesic
/// comparison as ``ReverseGeocoder`` does); areas and street segments are filed under a grid of
/// 0.002° cells (about 220 m of latitude), so a query tests only the few near it.
public final class OSMReverseGeocoder: Sendable {
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
    /// Areas by grid cell: indexes into `places`.
    let areaCells: [GridCell: [Int]]
    /// Each area's bounding box, by index into `places` (areas only), to skip most areas without
    /// reading their rings, and to order nested ones (smallest first).
    private let areaBoxes: [Int: Box]
    /// The named streets' lines, flattened: each line's points are a range of `streetPoints`.
    let streetLines: [StreetLine]
    let streetPoints: [Coordinate]
    /// For each grid cell, the lines that cross it or one of its eight neighbours, each once: a
    /// street within ``streetRadiusMeters`` (less than a cell) of a point is among them.
    private let streetNeighbourhoods: [GridCell: [Int32]]

    /// A bounding box in degrees.
    struct Box: Sendable {
        var south: Double, west: Double, north: Double, east: Double

        init(_ points: some Sequence<Coordinate>) {
            (south, west, north, east) = (.infinity, .infinity, -.infinity, -.infinity)
            for point in points {
                south = min(south, point.latitude); north = max(north, point.latitude)
                west = min(west, point.longitude); east = max(east, point.longitude)
            }
        }

        func contains(_ point: Coordinate) -> Bool {
            point.latitude >= south && point.latitude <= north && point.longitude >= west && point.longitude <= east
        }

        var area: Double { (north - south) * (east - west) }
    }

    /// One line of a named street: its place and its points in `streetPoints`.
    struct StreetLine: Sendable {
        let place: Int32
        let start: Int32, end: Int32
        let box: Box
    }

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
    /// ``boundaries()``, measured when first asked for.
    let measuredBoundaries = Mutex<[OSMBoundary]?>(nil)

    /// Indexes every distinct place of the set.
    /// - Complexity: O(n log n) for n places, plus the points of areas and streets.
    public init(places set: OSMPlaceSet) {
        sources = set.files.map { "\($0.sourceName) \($0.count)" }.joined(separator: ", ")
        var places: [OSMPlace] = []
        set.forEachPlace { file, index in places.append(set.files[file].place(at: index)) }
        self.places = places
        var addressIndexes: [Int] = [], poiIndexes: [Int] = []
        var areaCells: [GridCell: [Int]] = [:], areaBoxes: [Int: Box] = [:]
        var streetLines: [StreetLine] = [], streetPoints: [Coordinate] = [], streetNeighbourhoods: [GridCell: [Int32]] = [:]
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
                if place.kind.contains(.area) {
                    areaBoxes[index] = Box(points)
                    for row in low.row...high.row {
                        for column in low.column...high.column { areaCells[GridCell(row: row, column: column), default: []].append(index) }
                    }
                }
                guard place.kind.contains(.street) else { continue }
                for line in place.geometry where !line.isEmpty {
                    let lineIndex = Int32(streetLines.count)
                    streetLines.append(StreetLine(place: Int32(index), start: Int32(streetPoints.count),
                                                  end: Int32(streetPoints.count + line.count), box: Box(line)))
                    streetPoints += line
                    var lineLow = GridCell(line[0]), lineHigh = lineLow
                    for point in line {
                        let cell = GridCell(point)
                        lineLow = GridCell(row: min(lineLow.row, cell.row), column: min(lineLow.column, cell.column))
                        lineHigh = GridCell(row: max(lineHigh.row, cell.row), column: max(lineHigh.column, cell.column))
                    }
                    for row in (lineLow.row - 1)...(lineHigh.row + 1) {
                        for column in (lineLow.column - 1)...(lineHigh.column + 1) {
                            streetNeighbourhoods[GridCell(row: row, column: column), default: []].append(lineIndex)
                        }
                    }
                }
            }
        }
        self.addressIndexes = addressIndexes
        self.poiIndexes = poiIndexes
        addressTree = PointKDTree(points: addressIndexes.map { ReverseGeocoder.earthCenteredPoint(places[$0].coordinate) })
        poiTree = PointKDTree(points: poiIndexes.map { ReverseGeocoder.earthCenteredPoint(places[$0].coordinate) })
        self.areaCells = areaCells
        self.areaBoxes = areaBoxes
        self.streetLines = streetLines
        self.streetPoints = streetPoints
        self.streetNeighbourhoods = streetNeighbourhoods
    }

    /// The number of distinct places indexed.
    public var count: Int { places.count }

    /// What OSM says is at `coordinate`, `nil` when no extract has an address or street near it.
    /// - Complexity: O(log n) for the trees plus the areas and street segments of nine grid cells.
    public func address(for coordinate: Coordinate) -> OSMStreetAddress? {
        var containing: [Int] = []
        for index in areaCells[GridCell(coordinate)] ?? [] where areaBoxes[index]?.contains(coordinate) ?? true {
            if Self.contains(places[index].geometry, coordinate) { containing.append(index) }
        }
        if containing.count > 1 { containing.sort { (areaBoxes[$0]?.area ?? 0) < (areaBoxes[$1]?.area ?? 0) } }
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
        guard !areasOfInterest.isEmpty || pointOfInterest != nil else { return nil }
        return OSMStreetAddress(match: .area, thoroughfare: nil, subThoroughfare: nil, postalCode: nil, locality: nil, subLocality: nil,
                                areasOfInterest: areasOfInterest, pointOfInterest: pointOfInterest, distanceMeters: 0)
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
    /// plane (equirectangular, metres; exact enough at 100 m), over the lines of the coordinate's
    /// cell and its neighbours; a line whose box is farther than the best so far is not read.
    private func nearestStreet(to coordinate: Coordinate) -> (index: Int, distanceMeters: Double)? {
        guard let lines = streetNeighbourhoods[GridCell(coordinate)] else { return nil }
        var best: (index: Int, distanceMeters: Double)?
        var bestLine = Int32.max
        let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
        let scale = cos(coordinate.latitude * .pi / 180)
        let xScale = scale * metersPerDegree
        func plane(_ point: Coordinate) -> (Double, Double) {
            ((point.longitude - coordinate.longitude) * xScale, (point.latitude - coordinate.latitude) * metersPerDegree)
        }
        streetPoints.withUnsafeBufferPointer { points in
            for lineIndex in lines {
                let line = streetLines[Int(lineIndex)]
                // The box's distance is a lower bound of every segment's.
                let dx = max(line.box.west - coordinate.longitude, 0, coordinate.longitude - line.box.east) * xScale
                let dy = max(line.box.south - coordinate.latitude, 0, coordinate.latitude - line.box.north) * metersPerDegree
                let limit = best?.distanceMeters ?? Self.streetRadiusMeters
                guard dx * dx + dy * dy <= limit * limit else { continue }
                var previous = plane(points[Int(line.start)])
                var lineBest = Self.segmentDistance(previous, previous)  // a line of one point
                for position in Int(line.start + 1)..<Int(line.end) {
                    let next = plane(points[position])
                    lineBest = min(lineBest, Self.segmentDistance(previous, next))
                    previous = next
                }
                let place = Int(line.place)
                // Ties: the line first in the extract (as the scan by place in file order chose).
                if lineBest <= Self.streetRadiusMeters,
                   best == nil || lineBest < best!.distanceMeters || (lineBest == best!.distanceMeters && lineIndex < bestLine) {
                    best = (place, lineBest)
                    bestLine = lineIndex
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
    /// A ring the extract cut open (its way's nodes beyond the extract's edge are missing) is closed
    /// by a straight edge from its last point to its first, as renderers close it.
    static func contains(_ rings: [[Coordinate]], _ point: Coordinate) -> Bool {
        var inside = false
        for ring in rings where ring.count > 2 {
            var a = ring[ring.count - 1]
            for b in ring {
                if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                    let longitude = a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                    if point.longitude < longitude { inside.toggle() }
                }
                a = b
            }
        }
        return inside
    }
}
