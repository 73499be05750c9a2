import TravelogCore

extension TimeZoneBoundaries {
    /// The zone of a point in a cell where zones meet, from the cell's record (see the type's notes).
    /// - Parameters:
    ///   - x: longitude, y: latitude, in 1/`unitsPerDegree` degrees.
    ///   - cornerX, cornerY: the cell's south-west corner, in the same units.
    /// - Complexity: O(e), e the edges of the candidates tried.
    func zoneIndex(x: Double, y: Double, record: Int, cornerX: Int64, cornerY: Int64) -> Int {
        let words = cellRecords
        let count = Int(words[record]), sameZoneFrom = Int(words[record + 1])
        var position = record + 2
        var polygon = 0
        withExtendedLifetime(points.bytes) {
            for candidate in 0..<count {
                polygon = Int(words[position] & 0x7FFF_FFFF)
                if candidate >= sameZoneFrom { break }
                var inside = words[position] >> 31 == 1
                let runCount = Int(words[position + 1])
                position += 2
                for run in 0..<runCount {
                    let first = Int(words[position + 2 * run]), edgeCount = Int(words[position + 2 * run + 1])
                    var cursor = points.cursor(at: first)
                    var a = cursor.next()
                    for _ in 0..<edgeCount {
                        let b = cursor.next()
                        if pathCrosses(a, b, x: x, y: y, cornerX: cornerX, cornerY: cornerY) { inside.toggle() }
                        a = b
                    }
                }
                position += 2 * runCount
                if inside { break }
            }
        }
        return Int(polygonZones[polygon])
    }

    /// Whether an edge flips the parity of the path from the cell corner east to (x, cornerY), then
    /// north to (x, y): it crosses the bottom line (half-open in y, as the build script counts the
    /// corner's crossings) strictly east of the corner and at or west of x, or crosses the vertical
    /// line through x (half-open in x) above the bottom and at or below y. An edge crossing both
    /// parts flips twice. The bottom-line formula is the build script's, operation for operation.
    @inline(__always)
    func pathCrosses(_ a: (x: Int64, y: Int64), _ b: (x: Int64, y: Int64), x: Double, y: Double, cornerX: Int64, cornerY: Int64) -> Bool {
        let (xa, ya, xb, yb) = (a.x, a.y, b.x, b.y)
        var flips = false
        if (ya > cornerY) != (yb > cornerY) {
            let crossing = Double(xa) + Double((cornerY - ya) * (xb - xa)) / Double(yb - ya)
            if crossing > Double(cornerX) && crossing <= x { flips.toggle() }
        }
        if (Double(xa) > x) != (Double(xb) > x) {
            let crossing = Double(ya) + (x - Double(xa)) * Double(yb - ya) / Double(xb - xa)
            if crossing > Double(cornerY) && crossing <= y { flips.toggle() }
        }
        return flips
    }

    /// The zones of every polygon containing a coordinate, found without the grid by the even-odd
    /// rule over all rings (a ray to the east): the reference the grid's answers are checked against.
    /// - Complexity: O(N), N the points of all polygons.
    func zoneIndexesTestingEveryPolygon(for coordinate: Coordinate) -> [Int] {
        withExtendedLifetime(points.bytes) { zoneIndexesTestingEveryPolygonUnretained(for: coordinate) }
    }

    private func zoneIndexesTestingEveryPolygonUnretained(for coordinate: Coordinate) -> [Int] {
        let x = coordinate.longitude * Double(unitsPerDegree), y = coordinate.latitude * Double(unitsPerDegree)
        var zones: [Int] = []
        for polygon in 0..<polygonCount {
            var inside = false
            for ring in Int(polygonFirstRing[polygon])..<Int(polygonFirstRing[polygon + 1]) {
                var cursor = points.cursor(at: Int(ringFirstPoint[ring]))
                var a = cursor.next()
                for _ in Int(ringFirstPoint[ring])..<(Int(ringFirstPoint[ring + 1]) - 1) {
                    let b = cursor.next()
                    defer { a = b }
                    let ya = Double(a.y), yb = Double(b.y)
                    guard (ya > y) != (yb > y) else { continue }
                    let xa = Double(a.x), xb = Double(b.x)
                    if x < xa + (y - ya) * (xb - xa) / (yb - ya) { inside.toggle() }
                }
            }
            if inside { zones.append(Int(polygonZones[polygon])) }
        }
        return zones
    }
}
