import Testing
@testable import TravelogCore

@Suite("Robust maximum (maximum of medians of three)")
struct MedianOfThreeMaximumTests {
    static func maximum(_ samples: [Double]) -> Double? {
        var tracker = MedianOfThreeMaximum()
        for sample in samples { tracker.add(sample) }
        return tracker.value
    }

    @Test("a single wild sample cannot set the maximum")
    func wildSample() {
        #expect(Self.maximum([1, 50, 2, 3]) == 3)
        #expect(Self.maximum([1, 2, 3, 50]) == 3)
        #expect(Self.maximum([50, 1, 2, 3]) == 2)
    }

    @Test("two high samples in a row do set it")
    func sustained() {
        #expect(Self.maximum([1, 9, 9, 1]) == 9)
    }

    @Test("with fewer than three samples the smaller one is reported")
    func few() {
        #expect(Self.maximum([]) == nil)
        #expect(Self.maximum([4]) == 4)
        #expect(Self.maximum([4, 7]) == 4)
    }
}
