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

    @Test("a stay detected before the file's own visit of it is stored is listed once, as the file's (issue 26)",
          arguments: [false, true])
    func detectedFirst(inMemory: Bool) async throws {
        let (sqlite, sqliteDevice) = try await Day.prepared()
        let store: any LocationStore & AccountStore & JournalStore
        let device: Device
        if inMemory {
            let memory = InMemoryLocationStore()
            store = memory
            device = try await memory.addDevice(named: "phone", userID: try await memory.addUser(named: "ada").id)
        } else {
            (store, device) = (sqlite, sqliteDevice)
        }
        _ = try await store.insert(Day.dayOfFixes().map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
        let processor = JournalProcessor(store: store, describer: nil)
        // The server's order: a batch's fixes are stored and detected, then the batch's own visits.
        _ = try await processor.process(device: device)
        let detected = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(detected.map(\.visit.source) == [.detected, .detected, .detected])
        try await processor.storeDescribedVisits([Self.officeVisit(device: device)], device: device, source: .google)
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.map(\.visit.source) == [.detected, .google, .detected])
        #expect(visits.map(\.id) == [detected[0].id, visits[1].id, detected[2].id], "the other stays keep their entries")
        _ = try await processor.process(device: device)
        #expect(try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
            .map(\.visit.source) == [.detected, .google, .detected])
    }

    @Test("the person's decisions about a detected entry pass to the file's visit of the same stay: a title, a deletion")
    func decisionsCarriedOver() async throws {
        let (store, device) = try await Day.prepared()
        try await Day.store(Day.dayOfFixes(), in: store, device: device)
        let processor = JournalProcessor(store: store, describer: nil)
        _ = try await processor.process(device: device)
        let detected = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        try #require(detected.count == 3)
        _ = try await store.editVisit(id: detected[1].id, VisitEdit(title: .some("Work")))
        try await processor.storeDescribedVisits([Self.officeVisit(device: device)], device: device, source: .google)
        var visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.map(\.visit.source) == [.detected, .google, .detected])
        #expect(visits[1].title == "Work")

        // The evening's entry deleted, then a file's visit of that stay: the stay does not come back.
        _ = try await store.editVisit(id: detected[2].id, VisitEdit(hidden: true))
        var evening = Self.officeVisit(device: device)
        evening.arrival = Day.day.addingTimeInterval(1050 * 60)
        evening.departure = Day.day.addingTimeInterval(1439 * 60)
        evening.center = Day.home
        try await processor.storeDescribedVisits([evening], device: device, source: .google)
        visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.map(\.visit.source) == [.detected, .google])
        _ = try await processor.process(device: device)
        visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.map(\.visit.source) == [.detected, .google])
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
