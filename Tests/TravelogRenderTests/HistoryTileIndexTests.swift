import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("History tile index")
struct HistoryTileIndexTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A walk east along a parallel: a fix every `stepSeconds`, `stepDegrees` apart.
    static func walk(from longitude: Double, latitude: Double, count: Int, stepDegrees: Double,
                     stepSeconds: Double = 10, startOffsetSeconds: Double = 0) -> [Location] {
        (0..<count).map { step in
            Location(coordinate: Coordinate(validLatitude: latitude, longitude: longitude + Double(step) * stepDegrees)!,
                     timestamp: start.addingTimeInterval(startOffsetSeconds + Double(step) * stepSeconds))
        }
    }

    static func index(_ tracks: [[Location]]) -> HistoryTileIndex {
        var index = HistoryTileIndex()
        for (device, track) in tracks.enumerated() {
            for location in track {
                let added = index.append(location, deviceIndex: device)
                #expect(added)
            }
        }
        return index
    }

    @Test("a tile at a deep zoom holds exactly the fixes inside it", arguments: [15, 16, 18])
    func rawFixes(zoom: Int) {
        let track = Self.walk(from: 13.30, latitude: 52.52, count: 2000, stepDegrees: 0.0001)
        let index = Self.index([track])
        let tile = Tile(containing: track[1000].coordinate, zoom: zoom)
        let content = index.content(in: tile.mapRect, zoom: zoom, filter: .init())
        // The index keeps whole map points (about 15 cm).
        let expected = track.filter { location in
            let point = MapPoint(location.coordinate)
            return tile.mapRect.contains(MapPoint(x: point.x.rounded(), y: point.y.rounded()))
        }.count
        #expect(content.fixes.count == expected)
        #expect(content.fixes.allSatisfy { $0.weight == 1 })
    }

    @Test("a long segment with no fix in a tile is still found there")
    func segmentCrossing() {
        let track = [
            Location(coordinate: Coordinate(validLatitude: 52.52, longitude: 13.0)!, timestamp: Self.start),
            Location(coordinate: Coordinate(validLatitude: 52.52, longitude: 14.0)!, timestamp: Self.start.addingTimeInterval(600)),
        ]
        let index = Self.index([track])
        for zoom in [10, 14, 16, 18] {
            let tile = Tile(containing: Coordinate(validLatitude: 52.52, longitude: 13.5)!, zoom: zoom)
            let content = index.content(in: tile.mapRect, zoom: zoom, filter: .init())
            #expect(content.fixes.isEmpty)
            #expect(content.lines.count == 1 && content.lines.first?.points.count == 2, "zoom \(zoom)")
        }
    }

    @Test("a silence of more than an hour breaks the line")
    func gap() {
        let first = Self.walk(from: 13.30, latitude: 52.52, count: 3, stepDegrees: 0.001)
        let second = Self.walk(from: 13.31, latitude: 52.52, count: 3, stepDegrees: 0.001, startOffsetSeconds: 7200)
        let index = Self.index([first + second])
        let tile = Tile(containing: first[0].coordinate, zoom: 13)
        let lines = index.content(in: tile.mapRect, zoom: 13, filter: .init()).lines
        #expect(lines.count == 2)
    }

    @Test("simplified levels keep every fix's weight: the weights add up to the fixes")
    func weights() {
        let track = Self.walk(from: 13.30, latitude: 52.52, count: 5000, stepDegrees: 0.00001)
        let index = Self.index([track])
        for zoom in [2, 6, 10, 12] {
            let content = index.content(in: .world, zoom: zoom, filter: .init())
            #expect(content.fixes.reduce(0) { $0 + $1.weight } == 5000, "zoom \(zoom)")
            #expect(content.fixes.count < 5000)
        }
        #expect(index.fixCount == 5000)
    }

    @Test("the time range and the devices filter what a tile shows")
    func filters() {
        let a = Self.walk(from: 13.30, latitude: 52.52, count: 100, stepDegrees: 0.0001)
        let b = Self.walk(from: 13.30, latitude: 52.521, count: 100, stepDegrees: 0.0001)
        let index = Self.index([a, b])
        let rect = MapRect(bounding: (a + b).map { MapPoint($0.coordinate) }).insetBy(dx: -10, dy: -10)
        #expect(index.content(in: rect, zoom: 18, filter: .init()).fixes.count == 200)
        #expect(index.content(in: rect, zoom: 18, filter: .init(devices: [1])).fixDevices.allSatisfy { $0 == 1 })
        let firstHalf = HistoryTileIndex.Filter(from: Self.start, to: Self.start.addingTimeInterval(495))
        #expect(index.content(in: rect, zoom: 18, filter: firstHalf).fixes.count == 100)
    }

    @Test("a fix older than its device's last one is refused")
    func outOfOrder() {
        var index = Self.index([Self.walk(from: 13.30, latitude: 52.52, count: 10, stepDegrees: 0.001)])
        let old = Location(coordinate: Coordinate(validLatitude: 52.5, longitude: 13.3)!, timestamp: Self.start.addingTimeInterval(-1))
        let refused = !index.append(old, deviceIndex: 0)
        let otherDevice = index.append(old, deviceIndex: 1)
        #expect(refused && otherDevice)
    }

    @Test("a heat tile of a dense walk matches the golden image")
    func heatGolden() throws {
        var tracks: [[Location]] = []
        for lap in 0..<6 {
            tracks.append(Self.walk(from: 13.395 + Double(lap) * 0.0004, latitude: 52.5185 + Double(lap) * 0.0003,
                                    count: 400 * (lap + 1), stepDegrees: 0.00002, stepSeconds: 1,
                                    startOffsetSeconds: Double(lap) * 5000))
        }
        let index = Self.index([tracks.flatMap { $0 }])
        let tile = Tile(containing: Coordinate(validLatitude: 52.5195, longitude: 13.400)!, zoom: 15)
        let canvas = try HistoryTileRenderer(layer: .heat).drawTile(tile, index: index, filter: .init())
        try GoldenImage.expectMatches(canvas, "heat-z15")
        let path = try HistoryTileRenderer(layer: .path).drawTile(tile, index: index, filter: .init())
        try GoldenImage.expectMatches(path, "path-z15")
    }
}
