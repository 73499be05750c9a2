import Foundation
import Testing
import TravelogCore

@Suite("Explored cells (where I have been)")
struct ExploredCellsTests {
    /// Metres per degree of latitude on the mean sphere, as the grid's rows.
    static let metersPerDegree = WGS84.meanRadiusMeters * Double.pi / 180

    /// Fixes a second apart from Helsinki heading `bearing` degrees at `speed` m/s.
    static func drive(count: Int, speed: Double, bearing: Double, start: Double = 0) -> [(Double, Double, Double)] {
        let origin = (60.17, 24.94)
        return (0..<count).map { step in
            let meters = Double(step) * speed
            let north = meters * cos(bearing * .pi / 180) / metersPerDegree
            let east = meters * sin(bearing * .pi / 180) / (metersPerDegree * cos(origin.0 * .pi / 180))
            return (origin.0 + north, origin.1 + east, start + Double(step))
        }
    }

    @Test("a cell is about 25 m on each side at the equator, at 60°N and at 80°N", arguments: [0.0, 60, 80])
    func cellSize(latitude: Double) {
        let box = ExploredCells.bounds(of: ExploredCells.cell(latitude: latitude, longitude: 10))
        let height = (box.north - box.south) * Self.metersPerDegree
        let width = (box.east - box.west) * Self.metersPerDegree * cos((box.north + box.south) / 2 * .pi / 180)
        #expect(abs(height - 25) < 0.01)
        // Columns are whole: a row holds floor(circumference / 25) of them, a little wider than 25 m.
        #expect(width >= 25 && width < 25.2, "\(width) m")
        #expect(box.south <= latitude && latitude < box.north && box.west <= 10 && 10 < box.east)
    }

    @Test("a drive at 30 m/s with a fix a second leaves no hole: every point of the way is in a visited cell or next to one")
    func noHoles() {
        var explored = ExploredCells()
        let fixes = Self.drive(count: 120, speed: 30, bearing: 37)
        for (latitude, longitude, seconds) in fixes { explored.append(latitude: latitude, longitude: longitude, seconds: seconds, device: 0) }
        // Independently: points every metre along the way; each one's cell is visited.
        var missed = 0, points = 0
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            for step in 0..<30 {
                let fraction = Double(step) / 30
                points += 1
                if !explored.contains(latitude: a.0 + (b.0 - a.0) * fraction, longitude: a.1 + (b.1 - a.1) * fraction) { missed += 1 }
            }
        }
        // Half-cell steps skip only corners a line clips by a few metres.
        #expect(Double(missed) / Double(points) < 0.03, "\(missed) of \(points) points in unvisited cells")
        // 3.57 km of road: about 143 cells along it, more where it crosses rows and columns diagonally.
        #expect(explored.count > 143 && explored.count < 300, "\(explored.count) cells")
        #expect(abs(explored.areaSquareMeters - Double(explored.count) * 625) < 0.01 * Double(explored.count) * 625)
    }

    @Test("a silence of more than an hour and a flight are not followed: only their ends are explored")
    func gapsAndFlights() {
        var silence = ExploredCells()
        silence.append(latitude: 60.17, longitude: 24.94, seconds: 0, device: 0)
        silence.append(latitude: 60.27, longitude: 24.94, seconds: 3601, device: 0)  // 11 km after an hour and a second
        #expect(silence.count == 2)
        var flight = ExploredCells()
        flight.append(latitude: 60.17, longitude: 24.94, seconds: 0, device: 0)
        flight.append(latitude: 59.33, longitude: 18.07, seconds: 1800, device: 0)  // Stockholm, 400 km in 30 min
        #expect(flight.count == 2)
        var walk = ExploredCells()
        walk.append(latitude: 60.17, longitude: 24.94, seconds: 0, device: 0)
        walk.append(latitude: 60.17 + 1000 / Self.metersPerDegree, longitude: 24.94, seconds: 3600, device: 0)  // 1 km in an hour
        #expect(walk.count >= 40 && walk.count <= 42, "\(walk.count)")
    }

    @Test("two devices are followed apart; the same cell twice counts once")
    func devices() {
        var explored = ExploredCells()
        explored.append(latitude: 60.17, longitude: 24.94, seconds: 0, device: 0)
        explored.append(latitude: 48.85, longitude: 2.35, seconds: 10, device: 1)
        explored.append(latitude: 60.17, longitude: 24.94, seconds: 20, device: 0)
        explored.append(latitude: 48.85, longitude: 2.35, seconds: 30, device: 1)
        #expect(explored.count == 2)
    }

    @Test("a day added later costs its own fixes and gives the cells of adding everything at once")
    func incremental() {
        let fixes = Self.drive(count: 600, speed: 12, bearing: 110)
        var whole = ExploredCells(), parts = ExploredCells()
        for (latitude, longitude, seconds) in fixes { whole.append(latitude: latitude, longitude: longitude, seconds: seconds, device: 3) }
        for (latitude, longitude, seconds) in fixes.prefix(300) { parts.append(latitude: latitude, longitude: longitude, seconds: seconds, device: 3) }
        let before = parts.count
        for (latitude, longitude, seconds) in fixes.dropFirst(300) { parts.append(latitude: latitude, longitude: longitude, seconds: seconds, device: 3) }
        #expect(before < parts.count && parts.count == whole.count && parts.areaSquareMeters == whole.areaSquareMeters)
        var cellsWhole = Set<UInt64>(), cellsParts = Set<UInt64>()
        whole.forEachCell { cellsWhole.insert($0) }
        parts.forEachCell { cellsParts.insert($0) }
        #expect(cellsWhole == cellsParts)
    }

    @Test("a tile shows the visited cells: the world's tile at zoom 3 a pixel, a street's tile at zoom 17 the cell")
    func tiles() throws {
        var explored = ExploredCells()
        explored.append(latitude: 60.17, longitude: 24.94, seconds: 0, device: 0)
        let point = MapPoint(Coordinate(validLatitude: 60.17, longitude: 24.94)!)
        let world = Tile(containing: point, zoom: 3)
        let pixels = explored.exploredRects(in: world)
        #expect(pixels.count == 1)
        #expect(pixels.first.map { $0.insetBy(dx: -1, dy: -1).contains(point) } == true)
        let street = Tile(containing: point, zoom: 17)
        let cells = explored.exploredRects(in: street)
        #expect(cells.count == 1 && cells[0].contains(point))
        #expect(explored.exploredRects(in: try Tile(zoom: 17, x: street.x + 3, y: street.y)).isEmpty)
        #expect(explored.exploredRects(in: try Tile(zoom: 3, x: (world.x + 4) % 8, y: world.y)).isEmpty)
    }
}
