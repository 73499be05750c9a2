import Foundation
import Testing
import TravelogCore
import TravelogJournal
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("The journal going on from where it stood (resume points)")
struct JournalResumeTests {
    /// The test day with a three-minute absence from the office (300 m away and back, too short to
    /// be a visit), which the merger joins into one office visit across two detected stays.
    static func dayWithShortAbsence() -> [Location] {
        let away = Coordinate(validLatitude: JournalProcessorTests.office.latitude + 0.0027, longitude: JournalProcessorTests.office.longitude)!
        return JournalProcessorTests.dayOfFixes().enumerated().map { minute, fix in
            guard (700..<703).contains(minute) else { return fix }
            var moved = fix
            moved.coordinate = away
            return moved
        }
    }

    static func wholeDayVisits(_ fixes: [Location]) async throws -> [StoredVisit] {
        let (store, device) = try await JournalProcessorTests.prepared()
        try await JournalProcessorTests.store(fixes, in: store, device: device)
        _ = try await JournalProcessor(store: store, describer: nil).process(device: device)
        return try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
    }

    /// Stores the day in random chunks, swapping the order of two neighbouring chunks now and then
    /// (uploads in flight together), processing each as the server does: with resume points.
    /// With `handingOver`, each chunk is also given as the fixes that landed (as the server's journal
    /// gives the write path's batches), so detection goes on from them without reading them back.
    /// With `keepingState`, the chunks go through a `JournalResumeState` (as the server's journal
    /// does), which also keeps the fixes handed over since the oldest point.
    static func chunkedVisits(_ fixes: [Location], seed: UInt64, swapping: Bool,
                              handingOver: Bool = false, keepingState: Bool = false) async throws -> (visits: [StoredVisit], arrivals: Int) {
        let (store, device) = try await JournalProcessorTests.prepared()
        let processor = JournalProcessor(store: store, describer: nil)
        var random = SplitMix64(seed: seed)
        var chunks: [ArraySlice<Location>] = []
        var index = 0
        while index < fixes.count {
            let size = 1 + Int(random.next() % 120)
            chunks.append(fixes[index..<min(fixes.count, index + size)])
            index += size
        }
        if swapping {
            var position = 0
            while position + 1 < chunks.count {
                if random.next() % 3 == 0 { chunks.swapAt(position, position + 1) }
                position += 2
            }
        }
        var points: [JournalResumePoint] = []
        var state = JournalResumeState()
        var arrivals = 0
        for chunk in chunks {
            try await JournalProcessorTests.store(chunk, in: store, device: device)
            let changes = keepingState
                ? try await processor.process(device: device, from: chunk.first?.timestamp, to: chunk.last?.timestamp,
                                              state: &state, stored: Array(chunk))
                : try await processor.process(device: device, from: chunk.first?.timestamp, to: chunk.last?.timestamp,
                                              resumePoints: &points, known: handingOver ? Array(chunk) : nil)
            arrivals += changes.arrived.count
        }
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        return (visits, arrivals)
    }

    @Test("batches in order, each read from where the last one stopped, give exactly the visits of the whole day, merged absence included",
          arguments: [UInt64(3), 17, 99])
    func inOrder(seed: UInt64) async throws {
        let fixes = Self.dayWithShortAbsence()
        let expected = try await Self.wholeDayVisits(fixes)
        #expect(expected.count == 3, "the absence is merged away: home, office, home")
        let (found, arrivals) = try await Self.chunkedVisits(fixes, seed: seed, swapping: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.center) == expected.map(\.visit.center))
        #expect(found.map(\.visit.locationCount) == expected.map(\.visit.locationCount))
        #expect(arrivals == 3, "each visit arrives once")
    }

    @Test("batches stored out of order go on from an older point and still give the visits of the whole day",
          arguments: [UInt64(5), 23, 71])
    func outOfOrder(seed: UInt64) async throws {
        let fixes = Self.dayWithShortAbsence()
        let expected = try await Self.wholeDayVisits(fixes)
        let (found, _) = try await Self.chunkedVisits(fixes, seed: seed, swapping: true)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.center) == expected.map(\.visit.center))
    }

    @Test("a batch older than every resume point drops them all and re-reads the stretch as before")
    func olderBatchDropsPoints() async throws {
        let (store, device) = try await JournalProcessorTests.prepared()
        let processor = JournalProcessor(store: store, describer: nil)
        let fixes = JournalProcessorTests.dayOfFixes()
        var points: [JournalResumePoint] = []
        let late = fixes[600...]
        try await JournalProcessorTests.store(late, in: store, device: device)
        _ = try await processor.process(device: device, from: late.first?.timestamp, to: late.last?.timestamp, resumePoints: &points)
        #expect(points.count == 1)
        #expect(points.last?.lastFixTime == late.last?.timestamp)
        let early = fixes[..<600]
        try await JournalProcessorTests.store(early, in: store, device: device)
        _ = try await processor.process(device: device, from: early.first?.timestamp, to: early.last?.timestamp, resumePoints: &points)
        #expect(points.count == 1, "the point after the late fixes was stale; the re-read made a new one")
        let expected = try await Self.wholeDayVisits(fixes)
        let found = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
    }

    @Test("batches handed over in memory, in order or a few swapped, give exactly the visits of the whole day",
          arguments: [(UInt64(3), false), (17, false), (5, true), (23, true), (71, true)])
    func handedOver(seed: UInt64, swapping: Bool) async throws {
        let fixes = Self.dayWithShortAbsence()
        let expected = try await Self.wholeDayVisits(fixes)
        let (found, arrivals) = try await Self.chunkedVisits(fixes, seed: seed, swapping: swapping, handingOver: true)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.center) == expected.map(\.visit.center))
        #expect(found.map(\.visit.locationCount) == expected.map(\.visit.locationCount))
        if !swapping { #expect(arrivals == 3, "each visit arrives once") }
    }

    @Test("fixes handed over are not read from the store: a stored fix missing from them is not seen until it is reported")
    func handedOverIsWhatIsFed() async throws {
        let (store, device) = try await JournalProcessorTests.prepared()
        let processor = JournalProcessor(store: store, describer: nil)
        let fixes = JournalProcessorTests.dayOfFixes()
        var points: [JournalResumePoint] = []
        let first = fixes[..<300]
        try await JournalProcessorTests.store(first, in: store, device: device)
        _ = try await processor.process(device: device, from: first.first?.timestamp, to: first.last?.timestamp, resumePoints: &points)
        // Two later stretches land; only the first is handed over (the other is still being reported).
        try await JournalProcessorTests.store(fixes[300...], in: store, device: device)
        let handed = Array(fixes[300..<400])
        _ = try await processor.process(device: device, from: handed.first?.timestamp, to: handed.last?.timestamp,
                                        resumePoints: &points, known: handed)
        #expect(points.last?.lastFixTime == handed.last?.timestamp, "the point stands after the fixes handed over, not the stored ones")
        // The rest, reported: the day's visits come out whole.
        let rest = Array(fixes[400...])
        _ = try await processor.process(device: device, from: rest.first?.timestamp, to: rest.last?.timestamp,
                                        resumePoints: &points, known: rest)
        let expected = try await Self.wholeDayVisits(fixes)
        let found = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
    }

    @Test("batches kept with their state, a few swapped, give exactly the visits of the whole day",
          arguments: [(UInt64(5), true), (23, true), (71, true), (3, false)])
    func keptState(seed: UInt64, swapping: Bool) async throws {
        let fixes = Self.dayWithShortAbsence()
        let expected = try await Self.wholeDayVisits(fixes)
        let (found, arrivals) = try await Self.chunkedVisits(fixes, seed: seed, swapping: swapping, keepingState: true)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.center) == expected.map(\.visit.center))
        #expect(found.map(\.visit.locationCount) == expected.map(\.visit.locationCount))
        if !swapping { #expect(arrivals == 3, "each visit arrives once") }
    }

    @Test("a batch that lands before the newest point goes on from an older one with the fixes kept, reading nothing back")
    func earlierBatchUsesKeptFixes() async throws {
        let (store, device) = try await JournalProcessorTests.prepared()
        let processor = JournalProcessor(store: store, describer: nil)
        let fixes = JournalProcessorTests.dayOfFixes()
        var state = JournalResumeState()
        let first = Array(fixes[..<300]), second = Array(fixes[300..<400]), third = Array(fixes[400..<500])
        try await JournalProcessorTests.store(first, in: store, device: device)
        _ = try await processor.process(device: device, from: first.first?.timestamp, to: first.last?.timestamp, state: &state,
                                        stored: first)
        // Everything else lands; the third stretch is reported before the second, the rest not yet.
        try await JournalProcessorTests.store(fixes[300...], in: store, device: device)
        _ = try await processor.process(device: device, from: third.first?.timestamp, to: third.last?.timestamp, state: &state,
                                        stored: third)
        #expect(state.points.last?.lastFixTime == third.last?.timestamp)
        _ = try await processor.process(device: device, from: second.first?.timestamp, to: second.last?.timestamp, state: &state,
                                        stored: second)
        // Gone back to the first point, detection was fed the second and third stretches as kept,
        // not the store (which holds the whole day): the new point stands after the third.
        #expect(state.points.last?.lastFixTime == third.last?.timestamp, "the store was read back")
        // An unknown write (duplicates, a deletion) reads the store and starts the kept fixes over.
        _ = try await processor.process(device: device, from: fixes[300].timestamp, to: fixes[300].timestamp, state: &state,
                                        stored: nil)
        #expect(state.points.last?.lastFixTime == fixes.last?.timestamp)
        let expected = try await Self.wholeDayVisits(fixes)
        let found = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
    }

    @Test("a journal that is behind reads batches stored after its work was taken, and goes on from them when they are reported")
    func readAheadIsNotReadAgain() async throws {
        let (store, device) = try await JournalProcessorTests.prepared()
        let processor = JournalProcessor(store: store, describer: nil)
        let fixes = JournalProcessorTests.dayOfFixes()
        var state = JournalResumeState()
        let first = Array(fixes[..<300]), second = Array(fixes[300..<400]), third = Array(fixes[400..<500])
        // The second batch lands before the first is processed: the first run reads it too.
        try await JournalProcessorTests.store(first + second, in: store, device: device)
        _ = try await processor.process(device: device, from: first.first?.timestamp, to: first.last?.timestamp, state: &state,
                                        stored: first)
        #expect(state.points.last?.lastFixTime == second.last?.timestamp, "the run read to the end of the data")
        // The second is reported while the third has landed, unreported: going on from the point, the
        // second's fixes were fed already and the third is not read.
        try await JournalProcessorTests.store(third, in: store, device: device)
        _ = try await processor.process(device: device, from: second.first?.timestamp, to: second.last?.timestamp, state: &state,
                                        stored: second)
        #expect(state.points.last?.lastFixTime == second.last?.timestamp, "the store was read back")
        let rest = Array(fixes[400...])
        try await JournalProcessorTests.store(Array(fixes[500...]), in: store, device: device)
        _ = try await processor.process(device: device, from: rest.first?.timestamp, to: rest.last?.timestamp, state: &state,
                                        stored: rest)
        let expected = try await Self.wholeDayVisits(fixes)
        let found = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.locationCount) == expected.map(\.visit.locationCount), "no fix was fed twice")
    }
}
