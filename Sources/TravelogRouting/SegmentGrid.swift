import Foundation
import TravelogCore

/// The segments of a graph bucketed by the grid cells their bounding boxes touch (cells of
/// ``cellDegrees`` of latitude and twice that of longitude), for snapping a point onto the nearest
/// segment. Built when a graph is opened. Cells of about 110 m: with 550 m ones a snap in a city
/// centre measured the distance to some 10,000 segments, 12 % of a directions request's CPU.
struct SegmentGrid: Sendable {
    static let cellDegrees = 0.001
    /// Per cell that holds a segment (by ``key(_:_:)``), its place in `offsets`.
    private let cells: [Int64: Int32]
    /// The segments of the cell at place `i` are `items[offsets[i] ..< offsets[i + 1]]`, ascending. One
    /// sorted pass and a dictionary of places instead of a dictionary of arrays (two small arrays per
    /// segment and one per cell): opening the generated 5M-node country (`make bench
    /// NAMES=directions-scale`) took 1.1–1.9 s instead of 2.7 s, and its process 50–110 MB less at
    /// its peak. (A binary search of the sorted keys instead of the dictionary looked a third slower
    /// for map matching, whose every fix looks up a few cells.)
    private let offsets: [UInt32]
    private let items: [Int32]
    /// Per item, its segment's bounding box within the cell (``CellBox``): a lookup rejects most of a cell's
    /// segments by reading these in order, instead of gathering two nodes' coordinates per segment from
    /// all over the graph (map matching's candidates scanned some 200 segments a fix to find 14 within reach).
    private let boxes: [CellBox]

    /// A bounding box relative to a cell's south-west corner, in 1e-7° clamped to the cell (0...``cellE7``
    /// north, 0...2 ``cellE7`` east): two boxes that meet somewhere meet, clamped, in each cell that holds both
    /// the segment and that place, so a lookup that tests the clamped boxes of every cell it touches misses none.
    private struct CellBox {
        let south: UInt16, west: UInt16, north: UInt16, east: UInt16
    }

    /// A cell's height in 1e-7°.
    private static let cellE7 = Int64((cellDegrees * 1e7).rounded())

    init() {
        cells = [:]
        offsets = [0]
        items = []
        boxes = []
    }

    init(_ graph: RoadGraph) {
        var pairs: [(key: Int64, segment: Int32)] = []
        pairs.reserveCapacity(graph.segmentCount + graph.segmentCount / 2)
        for segment in 0..<graph.segmentCount {
            let a = Int(graph.segmentFrom[segment]), b = Int(graph.segmentTo[segment])
            let aLatitude = Double(graph.nodeLatitudeE7[a]) / 1e7, bLatitude = Double(graph.nodeLatitudeE7[b]) / 1e7
            let aLongitude = Double(graph.nodeLongitudeE7[a]) / 1e7, bLongitude = Double(graph.nodeLongitudeE7[b]) / 1e7
            let (row0, column0) = Self.cell(latitude: min(aLatitude, bLatitude), longitude: min(aLongitude, bLongitude))
            let (row1, column1) = Self.cell(latitude: max(aLatitude, bLatitude), longitude: max(aLongitude, bLongitude))
            guard row1 - row0 < 320, column1 - column0 < 320 else { continue }  // a ferry line across a sea: reached from its ends
            for row in row0...row1 {
                for column in column0...column1 { pairs.append((Self.key(row, column), Int32(segment))) }
            }
        }
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.segment < $1.segment }
        var cells: [Int64: Int32] = [:], offsets: [UInt32] = [], items: [Int32] = [], boxes: [CellBox] = []
        items.reserveCapacity(pairs.count)
        boxes.reserveCapacity(pairs.count)
        var last: Int64?
        for pair in pairs {
            if last != pair.key {
                last = pair.key
                cells[pair.key] = Int32(offsets.count)
                offsets.append(UInt32(items.count))
            }
            items.append(pair.segment)
            let a = Int(graph.segmentFrom[Int(pair.segment)]), b = Int(graph.segmentTo[Int(pair.segment)])
            let latitudes = (Int64(graph.nodeLatitudeE7[a]), Int64(graph.nodeLatitudeE7[b]))
            let longitudes = (Int64(graph.nodeLongitudeE7[a]), Int64(graph.nodeLongitudeE7[b]))
            let (south, west) = Self.relative(pair.key, latitudeE7: min(latitudes.0, latitudes.1), longitudeE7: min(longitudes.0, longitudes.1))
            let (north, east) = Self.relative(pair.key, latitudeE7: max(latitudes.0, latitudes.1), longitudeE7: max(longitudes.0, longitudes.1))
            boxes.append(CellBox(south: south, west: west, north: north, east: east))
        }
        offsets.append(UInt32(items.count))
        self.cells = cells
        self.offsets = offsets
        self.items = items
        self.boxes = boxes
    }

    /// A point relative to the south-west corner of the cell `key`, clamped to the cell, in 1e-7°.
    @inline(__always)
    private static func relative(_ key: Int64, latitudeE7: Int64, longitudeE7: Int64) -> (UInt16, UInt16) {
        let row = key >> 32, column = Int64(Int32(truncatingIfNeeded: key))
        let north = latitudeE7 - row * cellE7, east = longitudeE7 - column * 2 * cellE7
        return (UInt16(min(max(north, 0), cellE7)), UInt16(min(max(east, 0), 2 * cellE7)))
    }

    /// Calls `body` with each segment of the cell `key` (none when it holds none).
    @inline(__always)
    private func forEachSegment(inCell key: Int64, _ body: (Int32) -> Void) {
        guard let place = cells[key].map(Int.init) else { return }
        for index in Int(offsets[place])..<Int(offsets[place + 1]) { body(items[index]) }
    }

    static func cell(latitude: Double, longitude: Double) -> (Int, Int) {
        (Int((latitude / cellDegrees).rounded(.down)), Int((longitude / (2 * cellDegrees)).rounded(.down)))
    }

    static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }

    /// The segments whose bounding boxes may meet a box given in 1e-7° (south, west, north, east): those of
    /// the cells the box touches whose box within the cell meets the box's; a segment in several of those
    /// cells may be given once per cell.
    func segments(southE7: Int64, westE7: Int64, northE7: Int64, eastE7: Int64, _ body: (Int32) -> Void) {
        let (row0, column0) = Self.cell(latitude: Double(southE7) / 1e7, longitude: Double(westE7) / 1e7)
        let (row1, column1) = Self.cell(latitude: Double(northE7) / 1e7, longitude: Double(eastE7) / 1e7)
        for r in row0...max(row0, row1) {
            for c in column0...max(column0, column1) {
                let key = Self.key(r, c)
                guard let place = cells[key].map(Int.init) else { continue }
                let (south, west) = Self.relative(key, latitudeE7: southE7, longitudeE7: westE7)
                let (north, east) = Self.relative(key, latitudeE7: northE7, longitudeE7: eastE7)
                boxes.withUnsafeBufferPointer { boxes in
                    for index in Int(offsets[place])..<Int(offsets[place + 1]) {
                        let box = boxes[index]
                        if box.north < south || box.south > north || box.east < west || box.west > east { continue }
                        body(items[index])
                    }
                }
            }
        }
    }

    /// The segments in the cells within `rings` cells of the point's.
    func segments(near coordinate: Coordinate, ring: Int, _ body: (Int32) -> Void) {
        let (row, column) = Self.cell(latitude: coordinate.latitude, longitude: coordinate.longitude)
        for r in (row - ring)...(row + ring) {
            for c in (column - ring)...(column + ring) where abs(r - row) == ring || abs(c - column) == ring {
                forEachSegment(inCell: Self.key(r, c), body)
            }
        }
    }
}

/// A point snapped onto the road network: the segment, how far along it (0 at its `from` node, 1
/// at its `to` node), the point there and its distance from the point asked for.
struct SnappedPoint: Sendable {
    let segment: Int
    let fraction: Double
    let coordinate: Coordinate
    let distanceMeters: Double
}

extension RoadGraph {
    /// The nearest point on a segment the mode may travel (with `connectedOnly`, one of the mode's
    /// largest strongly connected component: in a direction that leads everywhere), within `maximumMeters`.
    /// A local equirectangular projection picks the segment and the point; the distance reported is geodesic.
    /// - Complexity: O(segments in the cells searched).
    func snap(_ point: Coordinate, mode: DirectionsMode, maximumMeters: Double, connectedOnly: Bool = false) -> SnappedPoint? {
        let metersPerDegreeLatitude = 111_132.0
        let metersPerDegreeLongitude = 111_320.0 * cos(point.latitude * .pi / 180)
        var best: (segment: Int, fraction: Double, squared: Double)?
        let ringMeters = SegmentGrid.cellDegrees * metersPerDegreeLatitude
        let rings = Int((maximumMeters / ringMeters).rounded(.up)) + 1
        for ring in 0...rings {
            if let found = best, ring >= 2, Double(ring - 1) * ringMeters > found.squared.squareRoot() { break }
            grid.segments(near: point, ring: ring) { index in
                let segment = Int(index)
                guard usable(segment: segment, direction: 0, mode: mode) || usable(segment: segment, direction: 1, mode: mode) else { return }
                if connectedOnly && !isConnected(segment: segment, mode: mode) { return }
                let a = segmentFrom[segment], b = segmentTo[segment]
                let ax = (Double(nodeLongitudeE7[Int(a)]) / 1e7 - point.longitude) * metersPerDegreeLongitude
                let ay = (Double(nodeLatitudeE7[Int(a)]) / 1e7 - point.latitude) * metersPerDegreeLatitude
                let bx = (Double(nodeLongitudeE7[Int(b)]) / 1e7 - point.longitude) * metersPerDegreeLongitude
                let by = (Double(nodeLatitudeE7[Int(b)]) / 1e7 - point.latitude) * metersPerDegreeLatitude
                let dx = bx - ax, dy = by - ay
                let lengthSquared = dx * dx + dy * dy
                let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
                let px = ax + t * dx, py = ay + t * dy
                let squared = px * px + py * py
                if let current = best, squared > current.squared || (squared == current.squared && segment >= current.segment) { return }
                best = (segment, t, squared)
            }
        }
        guard let best, best.squared.squareRoot() <= maximumMeters * 1.01 + 1 else { return nil }
        let a = coordinate(ofNode: segmentFrom[best.segment]), b = coordinate(ofNode: segmentTo[best.segment])
        let snapped = Coordinate(validLatitude: a.latitude + best.fraction * (b.latitude - a.latitude),
                               longitude: a.longitude + best.fraction * (b.longitude - a.longitude)) ?? a
        let distance = snapped.distanceMeters(to: point)
        guard distance <= maximumMeters else { return nil }
        return SnappedPoint(segment: best.segment, fraction: best.fraction, coordinate: snapped, distanceMeters: distance)
    }

    /// Whether a segment has a direction in the mode's largest strongly connected component.
    func isConnected(segment: Int, mode: DirectionsMode) -> Bool { segmentConnected[segment] & (1 << UInt8(mode.index)) != 0 }
}
