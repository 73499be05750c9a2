import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("History tile content")
struct HistoryTileContentTests {
    static let start = HistoryTileIndexTests.start

    static func fix(_ longitude: Double, _ latitude: Double, second: Int) -> Location {
        Location(coordinate: Coordinate(validLatitude: latitude, longitude: longitude)!,
                 timestamp: start.addingTimeInterval(Double(second)))
    }

    /// Where the index keeps a fix: on whole map points.
    static func kept(_ location: Location) -> MapPoint {
        let point = MapPoint(location.coordinate)
        return MapPoint(x: point.x.rounded(), y: point.y.rounded())
    }

    /// Device 0 walks east through the area, goes far north (A), east (B), and comes back west
    /// through it; device 1 walks inside the area all along. Their fixes are added alternately,
    /// as two phones uploading at once would. - Returns: the index, the area, and device 0's fixes.
    static func twoDevices() -> (HistoryTileIndex, MapRect, [Location]) {
        let first = (0..<50).map { fix(13.30 + Double($0) * 0.0001, 52.52, second: $0 * 10) }
        let away = [fix(13.3049, 52.60, second: 500), fix(13.40, 52.60, second: 510)]
        let back = (0..<50).map { fix(13.3049 - Double($0) * 0.0001, 52.5201, second: 520 + $0 * 10) }
        let wanderer = first + away + back
        let stayer = (0..<200).map { fix(13.30 + Double($0 % 50) * 0.0001, 52.5202, second: $0 * 10) }
        var index = HistoryTileIndex()
        for step in 0..<max(wanderer.count, stayer.count) {
            let added = (step < wanderer.count ? index.append(wanderer[step], deviceIndex: 0) : true)
                && (step < stayer.count ? index.append(stayer[step], deviceIndex: 1) : true)
            #expect(added)
        }
        let rect = MapRect(bounding: (first + stayer).map { MapPoint($0.coordinate) }).insetBy(dx: -5, dy: -5)
        return (index, rect, wanderer)
    }

    @Test("a track that leaves the area and comes back is two pieces, with devices added alternately")
    func piecesPerDevice() {
        let (index, rect, wanderer) = Self.twoDevices()
        let lines = index.content(in: rect, zoom: 18, filter: .init()).lines
        let pieces = lines.filter { $0.deviceIndex == 0 }, stayer = lines.filter { $0.deviceIndex == 1 }
        // In: 50 fixes and the way out to A; back: from B, 50 fixes.
        #expect(pieces.map(\.points.count) == [51, 51])
        #expect(pieces.first?.points.last == Self.kept(wanderer[50]))
        #expect(pieces.last?.points.first == Self.kept(wanderer[51]))
        #expect(pieces.last?.points.last == Self.kept(wanderer[101]))
        #expect(stayer.count == 1 && stayer.first?.points.count == 200)
    }

    @Test("a path reads only the lines and a heatmap only the fixes, the same as reading both")
    func parts() {
        let (index, rect, _) = Self.twoDevices()
        for zoom in [12, 16] {
            let all = index.content(in: rect, zoom: zoom, filter: .init())
            let lines = index.content(in: rect, zoom: zoom, filter: .init(), parts: .lines)
            let fixes = index.content(in: rect, zoom: zoom, filter: .init(), parts: .fixes)
            #expect(!all.lines.isEmpty && !all.fixes.isEmpty)
            #expect(lines.fixes.isEmpty && lines.lines.map(\.points) == all.lines.map(\.points))
            #expect(fixes.lines.isEmpty && fixes.fixes == all.fixes && fixes.fixDevices == all.fixDevices)
        }
    }
}
