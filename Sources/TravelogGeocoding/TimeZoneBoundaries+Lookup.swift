import TravelogCore

extension TimeZoneBoundaries {
    /// The zone of a point in a cell where zones meet, from the cell's record (see the type's notes).
    /// - Parameters:
    ///   - x: longitude, y: latitude, in 1/`unitsPerDegree` degrees.
    ///   - cornerX, cornerY: the cell's south-west corner, in the same units.
    /// - Complexity: O(e), e the edges of the candidates tried.
    func zoneIndex(x: Double, y: Double, record: Int, cornerX: Int64, cornerY: Int64) -> Int {
        cellRecords.withUnsafeBufferPointer { words in
            let count = Int(words[record]), sameZoneFrom = Int(words[record + 1])
            var position = record + 2
            var polygon = 0
            for candidate in 0..<count {
                polygon = Int(words[position] & 0x7FFF_FFFF)
                if candidate >= sameZoneFrom { break }
                var inside = words[position] >> 31 == 1
                let runCount = Int(words[position + 1])
                position += 2
                for run in 0..<runCount {
                    let first = Int(words[position + 2 * run]), edgeCount = Int(words[position + 2 * run + 1])
                    for edge in first..<(first + edgeCount)
                    where pathCrosses(edge: edge, x: x, y: y, cornerX: cornerX, cornerY: cornerY) {
                        inside.toggle()
                    }
                }
                position += 2 * runCount
                if inside { break }
            }
            return Int(polygonZones[polygon])
        }
    }

    /// Whether an edge flips the parity of the path from the cell corner east to (x, cornerY), then
    /// north to (x, y): it crosses the bottom line (half-open in y, as the build script counts the
    /// corner's crossings) strictly east of the corner and at or west of x, or crosses the vertical
    /// line through x (half-open in x) above the bottom and at or below y. An edge crossing both
    /// parts flips twice. The bottom-line formula is the build script's, operation for operation.
    @inline(__always)
    func pathCrosses(edge: Int, x: Double, y: Double, cornerX: Int64, cornerY: Int64) -> Bool {
        let xa = Int64(longitudes[edge]), ya = Int64(latitudes[edge])
        let xb = Int64(longitudes[edge + 1]), yb = Int64(latitudes[edge + 1])
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
        let x = coordinate.longitude * Double(unitsPerDegree), y = coordinate.latitude * Double(unitsPerDegree)
        var zones: [Int] = []
        for polygon in 0..<polygonCount {
            var inside = false
            for ring in Int(polygonFirstRing[polygon])..<Int(polygonFirstRing[polygon + 1]) {
                for edge in Int(ringFirstPoint[ring])..<(Int(ringFirstPoint[ring + 1]) - 1) {
                    let ya = Double(latitudes[edge]), yb = Double(latitudes[edge + 1])
                    guard (ya > y) != (yb > y) else { continue }
                    let xa = Double(longitudes[edge]), xb = Double(longitudes[edge + 1])
                    if x < xa + (y - ya) * (xb - xa) / (yb - ya) { inside.toggle() }
                }
            }
            if inside { zones.append(Int(polygonZones[polygon])) }
        }
        return zones
    }
}
