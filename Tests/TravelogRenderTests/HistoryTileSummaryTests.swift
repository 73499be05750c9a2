import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("History tile index: a range's bounds and count")
struct HistoryTileSummaryTests {
    /// Two devices' tracks added in turns of 700 fixes (so blocks hold one device or both; the
    /// last 300 fixes come from both in turns, so a block wholly in a range holds both), a fix
    /// every 10 s, wandering by a pseudo-random walk.
    static func tracks() -> [(location: Location, device: Int)] {
        var state: UInt64 = 7
        func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        var positions = [(52.52, 13.40), (48.14, 11.58)]
        var fixes: [(Location, Int)] = []
        for step in 0..<6000 {
            let device = step >= 5700 ? step % 2 : (step / 700) % 2
            positions[device].0 += unit() * 0.002
            positions[device].1 += unit() * 0.002
            let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(step) * 10)
            fixes.append((Location(coordinate: Coordinate(validLatitude: positions[device].0, longitude: positions[device].1)!,
                                   timestamp: time), device))
        }
        return fixes
    }

    /// The summary counted fix by fix, on whole map points as the index keeps them.
    static func expected(_ fixes: [(location: Location, device: Int)], _ filter: HistoryTileIndex.Filter) -> HistoryTileIndex.Summary {
        let accepted = fixes.filter { fix in
            (filter.from.map { fix.location.timestamp >= $0 } ?? true) && (filter.to.map { fix.location.timestamp <= $0 } ?? true)
                && (filter.devices?.contains(fix.device) ?? true)
        }
        let points = accepted.map { fix in
            let point = MapPoint(fix.location.coordinate)
            return MapPoint(x: point.x.rounded(), y: point.y.rounded())
        }
        return HistoryTileIndex.Summary(bounds: points.isEmpty ? .null : MapRect(bounding: points), fixCount: accepted.count,
                                        deviceIndices: Set(accepted.map(\.device)))
    }

    @Test("bounds, count and devices equal those counted fix by fix, for ranges that cut blocks and for device filters")
    func matchesEveryFix() {
        let fixes = Self.tracks()
        var index = HistoryTileIndex()
        for fix in fixes { index.append(fix.location, deviceIndex: fix.device) }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let filters: [HistoryTileIndex.Filter] = [
            .init(),
            .init(from: start.addingTimeInterval(12_345), to: start.addingTimeInterval(45_678)),
            .init(from: start.addingTimeInterval(12_345), to: start.addingTimeInterval(45_678), devices: [1]),
            .init(devices: [0]),
            .init(from: start.addingTimeInterval(20), to: start.addingTimeInterval(20)),
            .init(from: start.addingTimeInterval(100_000)),
            .init(devices: [5]),
        ]
        for filter in filters {
            #expect(index.summary(filter: filter) == Self.expected(fixes, filter), "\(filter)")
        }
        #expect(index.summary(filter: .init(from: start.addingTimeInterval(20), to: start.addingTimeInterval(20))).fixCount == 1)
        #expect(index.summary(filter: .init(devices: [5])).bounds.isNull)
        #expect(index.bounds(filter: .init()) == Self.expected(fixes, .init()).bounds)
    }
}
