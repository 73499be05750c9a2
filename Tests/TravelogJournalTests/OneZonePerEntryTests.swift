import Foundation
import Testing
import TravelogCore
import TravelogJournal
import TravelogSQLite
import TravelogStore

/// A day's entries are all in the local time of their places (issue 26: after an import, a day
/// listed the same stop twice, two hours apart, in two time zones and out of order). Entries
/// stored before a gazetteer was found had no zone and were shown in UTC, beside entries stored
/// later in the place's zone; a page sorting by the local times then mixed them up.
@Suite("One zone per entry")
struct OneZonePerEntryTests {
    typealias Day = JournalProcessorTests

    @Test("entries stored without a description are shown in their place's zone, like those described; in time order")
    func undescribedEntriesInThePlacesZone() async throws {
        let (store, device) = try await Day.prepared()
        let fixes = Day.dayOfFixes()
        // The day until 18:00 imported before the gazetteer was there, the evening after.
        let evening = Day.day.addingTimeInterval(18 * 3600)
        try await Day.store(fixes.filter { $0.timestamp < evening }, in: store, device: device)
        let old: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }
        _ = try await JournalProcessor(store: store, describer: nil, now: old).process(device: device)
        try await Day.store(fixes.filter { $0.timestamp >= evening }, in: store, device: device)
        _ = try await JournalProcessor(store: store, describer: BerlinDescriber(), now: old)
            .process(device: device, from: evening, to: fixes.last?.timestamp)
        let stored = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(stored.contains { $0.visit.placemark == nil }, "the morning's entries were stored without a description")

        let zones = PlaceTimeZones(describer: BerlinDescriber())
        let entries = try await JournalReader(store: store, timeZones: zones).entries(userID: device.userID, from: nil, to: nil)
        #expect(entries.count == 3)
        #expect(entries.map(\.timeZone) == Array(repeating: "Europe/Berlin", count: entries.count))
        #expect(entries.allSatisfy { $0.localArrival.hasSuffix("+02:00") && $0.localDeparture?.hasSuffix("+02:00") != false })
        #expect(entries.map(\.localArrival) == entries.map(\.localArrival).sorted(), "local times sort as the instants do")
        #expect(entries.first?.localArrival == "2024-06-01T02:00:00+02:00")
        // The trips between them are in the same zone as the entries at their ends.
        let trips = try await JournalReader(store: store, timeZones: zones).trips(userID: device.userID, from: nil, to: nil)
        #expect(!trips.isEmpty)
        #expect(trips.allSatisfy { $0.localStart.hasSuffix("+02:00") && $0.localEnd.hasSuffix("+02:00") }, "\(trips.map(\.localStart))")
    }

    @Test("the command line's and the server's start describe entries stored before the gazetteer: their names and zones")
    func describedOnceTheGazetteerIsThere() async throws {
        let (store, device) = try await Day.prepared()
        try await Day.store(Day.dayOfFixes(), in: store, device: device)
        _ = try await JournalProcessor(store: store, describer: nil).process(device: device)
        let processor = JournalProcessor(store: store, describer: BerlinDescriber())
        #expect(try await processor.describeStale(userID: device.userID) == 3)
        let entries = try await JournalReader(store: store).entries(userID: device.userID, from: nil, to: nil)
        #expect(entries.map(\.timeZone) == ["Europe/Berlin", "Europe/Berlin", "Europe/Berlin"])
        #expect(entries.map(\.place) == ["Berlin, DE", "Berlin, DE", "Berlin, DE"])
    }
}
