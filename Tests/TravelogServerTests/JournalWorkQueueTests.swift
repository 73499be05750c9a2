import Foundation
import Testing
import TravelogCore
import TravelogImport
import TravelogStore
@testable import TravelogServer

@Suite("The journal's work queue: uploads in flight together are taken in time order")
struct JournalWorkQueueTests {
    static let user = UserID(rawValue: 1)
    static let phone = Device(id: DeviceID(rawValue: 7), userID: user, name: "phone", createdAt: Date(timeIntervalSince1970: 0))
    static let start = Date(timeIntervalSince1970: 1_709_251_200)

    /// Fixes `range` seconds after `start`, one a second.
    static func fixes(_ range: Range<Int>) -> [Location] {
        range.map { Location(coordinate: Coordinate(validLatitude: 52.52, longitude: 13.40)!, timestamp: start.addingTimeInterval(Double($0))) }
    }

    static func add(_ fixes: [Location]?, from: Int, to: Int, to queue: inout JournalWorkQueue, at now: ContinuousClock.Instant) {
        queue.add(device: phone, from: start.addingTimeInterval(Double(from)), to: start.addingTimeInterval(Double(to)),
                  stored: fixes, at: now)
    }

    @Test("with no write under way, everything is taken with the fixes handed over, merged per device")
    func takesEverything() {
        var queue = JournalWorkQueue()
        let now = ContinuousClock.now
        Self.add(Self.fixes(0..<10), from: 0, to: 9, to: &queue, at: now)
        Self.add(Self.fixes(10..<20), from: 10, to: 19, to: &queue, at: now)
        let taken = queue.take(all: false, now: now)
        #expect(taken.count == 1)
        #expect(taken.first?.stored?.count == 20)
        #expect(taken.first?.from == Self.start)
        #expect(taken.first?.to == Self.start.addingTimeInterval(19))
        #expect(queue.take(all: false, now: now).isEmpty, "taken work is gone")
        #expect(!queue.hasHeldWork)
    }

    @Test("a write that has not said where it starts holds back all of its user's work; its end releases it")
    func unreadWriteHoldsAll() {
        var queue = JournalWorkQueue()
        let now = ContinuousClock.now
        let hold = queue.beginWrite(userID: Self.user)
        Self.add(Self.fixes(100..<110), from: 100, to: 109, to: &queue, at: now)
        #expect(queue.take(all: false, now: now).isEmpty)
        #expect(queue.hasHeldWork)
        let other = queue.beginWrite(userID: UserID(rawValue: 2))
        #expect(queue.take(all: false, now: now).isEmpty, "another user's write changes nothing")
        queue.endWrite(hold)
        #expect(queue.take(all: false, now: now).first?.stored?.count == 10, "released once the write ended")
        queue.endWrite(other)
    }

    @Test("a write that starts later holds back only the fixes at or after its start")
    func splitsAtTheWritesStart() {
        var queue = JournalWorkQueue()
        let now = ContinuousClock.now
        let hold = queue.beginWrite(userID: Self.user)
        queue.writeReached(hold, earliest: Self.start.addingTimeInterval(15))
        Self.add(Self.fixes(0..<10), from: 0, to: 9, to: &queue, at: now)
        Self.add(Self.fixes(20..<30), from: 20, to: 29, to: &queue, at: now)
        let taken = queue.take(all: false, now: now)
        #expect(taken.first?.stored?.map(\.timestamp) == Self.fixes(0..<10).map(\.timestamp))
        #expect(taken.first?.to == Self.start.addingTimeInterval(9))
        #expect(queue.hasHeldWork)
        queue.endWrite(hold)
        let rest = queue.take(all: false, now: now)
        #expect(rest.first?.stored?.map(\.timestamp) == Self.fixes(20..<30).map(\.timestamp))
        #expect(rest.first?.from == Self.start.addingTimeInterval(20))
    }

    @Test("held work is taken whole once it has waited the hold limit, and at once by a drain")
    func holdIsBounded() {
        var queue = JournalWorkQueue()
        let now = ContinuousClock.now
        _ = queue.beginWrite(userID: Self.user)
        Self.add(Self.fixes(0..<10), from: 0, to: 9, to: &queue, at: now)
        #expect(queue.take(all: false, now: now + .milliseconds(10)).isEmpty)
        #expect(queue.take(all: false, now: now + JournalWorkQueue.holdLimit).first?.stored?.count == 10)
        Self.add(Self.fixes(10..<20), from: 10, to: 19, to: &queue, at: now)
        #expect(queue.take(all: true, now: now).first?.stored?.count == 10, "a drain takes everything")
    }

    @Test("work without its fixes (a file import, repeats skipped) makes the stretch be read back, and is never held")
    func unknownFixesAreReadBack() {
        var queue = JournalWorkQueue()
        let now = ContinuousClock.now
        Self.add(Self.fixes(0..<10), from: 0, to: 9, to: &queue, at: now)
        Self.add(nil, from: 5, to: 50, to: &queue, at: now)
        _ = queue.beginWrite(userID: Self.user)
        let taken = queue.take(all: false, now: now)
        #expect(taken.count == 1)
        #expect(taken.first?.stored == nil)
        #expect(taken.first?.from == Self.start && taken.first?.to == Self.start.addingTimeInterval(50))
    }

    @Test("beyond the limit of fixes kept in memory, the stretch is read back instead")
    func knownLimit() {
        var queue = JournalWorkQueue()
        let now = ContinuousClock.now
        let many = Self.fixes(0..<(JournalWorkQueue.knownLimit / 2 + 1))
        Self.add(many, from: 0, to: many.count - 1, to: &queue, at: now)
        Self.add(many, from: 0, to: many.count - 1, to: &queue, at: now)
        #expect(queue.take(all: false, now: now).first?.stored == nil)
    }
}
