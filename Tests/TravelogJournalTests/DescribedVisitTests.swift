import Foundation
import Testing
import TravelogCore
import TravelogJournal
import TravelogSQLite
import TravelogStore

@Suite("Visits the data describes take the place of detected ones")
struct DescribedVisitTests {
    typealias Day = JournalProcessorTests

    /// Google's account of the office stay of `JournalProcessorTests.dayOfFixes` (08:30–17:00).
    static func officeVisit(device: Device) -> JournalVisit {
        JournalVisit(deviceID: device.id, source: .google, arrival: Day.day.addingTimeInterval(510 * 60),
                     departure: Day.day.addingTimeInterval(1020 * 60), center: Day.office, radiusMeters: 50,
                     locationCount: 0, name: "The Office")
    }

    @Test("a stay a file described is not detected a second time, even once the person deleted it")
    func describedStay() async throws {
        let (store, device) = try await Day.prepared()
        try await Day.store(Day.dayOfFixes(), in: store, device: device)
        let processor = JournalProcessor(store: store, describer: nil)
        try await processor.storeDescribedVisits([Self.officeVisit(device: device)], device: device, source: .google)
        _ = try await processor.process(device: device)
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.map(\.visit.source) == [.detected, .google, .detected])
        #expect(visits[1].visit.name == "The Office")

        _ = try await store.editVisit(id: visits[1].id, VisitEdit(hidden: true))
        _ = try await processor.process(device: device)
        let after = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(after.map(\.visit.source) == [.detected, .detected])
        #expect(after.allSatisfy { $0.visit.center.distanceMeters(to: Day.home) < 20 })
    }

    @Test("a described stay without an end is ongoing only while recent; in old data it ends where its evidence ends")
    func describedWithoutEnd() async throws {
        let (store, device) = try await Day.prepared()
        var open = Self.officeVisit(device: device)
        open.departure = nil
        let arrival = open.arrival
        let soon = JournalProcessor(store: store, describer: nil, now: { arrival.addingTimeInterval(3600) })
        try await soon.storeDescribedVisits([open], device: device, source: .google)
        var visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.first?.visit.departure == nil, "an hour after arrival it may still be going on")
        let later = JournalProcessor(store: store, describer: nil, now: { arrival.addingTimeInterval(30 * 86_400) })
        try await later.storeDescribedVisits([open], device: device, source: .google)
        visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.count == 1)
        #expect(visits.first?.visit.departure == arrival, "a month later it is not ongoing")
    }
}
