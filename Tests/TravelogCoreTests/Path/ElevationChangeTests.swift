import Testing
import TravelogCore

@Suite("Elevation gain and loss with hysteresis")
struct ElevationChangeTests {
    static func feed(_ altitudes: [Double], thresholdMeters: Double = 5) -> ElevationChange {
        var change = ElevationChange(thresholdMeters: thresholdMeters)
        for altitude in altitudes { change.ingest(altitudeMeters: altitude) }
        return change
    }

    @Test("a climb counts whole once it exceeds the threshold; dips below it do not interrupt it")
    func climb() {
        let change = Self.feed([0, 3, 1, 6, 2, 10])
        #expect(change.gainMeters == 10)
        #expect(change.lossMeters == 0)
    }

    @Test("alternating climbs and descents larger than the threshold all count")
    func alternating() {
        let change = Self.feed([100, 90, 95, 80, 86, 75])
        #expect(change.gainMeters == 11)
        #expect(change.lossMeters == 36)
    }

    @Test("wobbles smaller than the threshold add nothing")
    func wobble() {
        let change = Self.feed([10, 14, 11, 14.9, 10.1, 13])
        #expect(change.gainMeters == 0 && change.lossMeters == 0)
    }

    @Test("a zero threshold sums every rise and fall")
    func zeroThreshold() {
        let change = Self.feed([10, 14, 11, 15, 10], thresholdMeters: 0)
        #expect(change.gainMeters == 8)
        #expect(change.lossMeters == 8)
    }

    @Test("a climb that starts with a small dip counts from the lowest point")
    func climbFromLow() {
        let change = Self.feed([50, 47, 58])
        #expect(change.gainMeters == 11)
        #expect(change.lossMeters == 0)
    }

    @Test("non-finite altitudes are ignored")
    func nonFinite() {
        let change = Self.feed([0, .nan, 10, .infinity, 20])
        #expect(change.gainMeters == 20)
    }
}
