import Foundation
import Testing
@testable import TravelogServer

@Suite("RequestRateLimiter")
struct RequestRateLimiterTests {
    @Test("a burst is admitted, the next request waits, and the bucket refills at its rate; addresses are apart")
    func bucket() {
        var limiter = RequestRateLimiter(burst: 3, perSecond: 1)
        let start = Date(timeIntervalSince1970: 1_000)
        #expect((0..<3).allSatisfy { _ in limiter.admit("a", at: start) == nil })
        #expect(limiter.admit("a", at: start) == 1)
        #expect(limiter.admit("b", at: start) == nil)
        #expect(limiter.admit("a", at: start.addingTimeInterval(0.5)) == 0.5)
        #expect(limiter.admit("a", at: start.addingTimeInterval(1.5)) == nil)
        #expect(limiter.admit("a", at: start.addingTimeInterval(100)) == nil)
        #expect(limiter.buckets["a"]?.tokens == 2, "refilled to the burst, less this request")
    }
}
