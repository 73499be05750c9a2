import Foundation
import Testing
import TravelogCore
@testable import TravelogJournal
import TravelogStore

@Suite("One stay, several devices: journal entries fused")
struct VisitFusionTests {
    static let place = Coordinate(validLatitude: 52.52, longitude: 13.405)!
    static let start = Date(timeIntervalSince1970: 1_717_236_000)  // 2024-06-01T10:00:00Z

    static func visit(_ id: Int64, device: Int64, from minutes: Double, to end: Double?, east: Double = 0,
                      title: String? = nil, hidden: Bool = false, name: String? = nil) -> StoredVisit {
        StoredVisit(id: VisitID(rawValue: id),
                    visit: JournalVisit(deviceID: DeviceID(rawValue: device), source: .detected,
                                        arrival: start.addingTimeInterval(minutes * 60),
                                        departure: end.map { start.addingTimeInterval($0 * 60) },
                                        center: place.destination(bearingDegrees: 90, distanceMeters: east),
                                        radiusMeters: 50, locationCount: 10, name: name),
                    title: title, hidden: hidden)
    }

    @Test("a phone's and a watch's visits of one stay are one entry spanning both, with the longer one's id")
    func oneStay() {
        let fused = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60, east: 20),
                                       Self.visit(2, device: 2, from: 5, to: 90)])
        #expect(fused.map(\.id.rawValue) == [2])
        #expect(fused[0].visit.arrival == Self.start && fused[0].shownDeparture == Self.start.addingTimeInterval(90 * 60))
    }

    @Test("a named or described visit keeps its id over a longer one; an ongoing member keeps the entry ongoing")
    func keptMember() {
        let named = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60, title: "Home"),
                                       Self.visit(2, device: 2, from: 0, to: nil)])
        #expect(named.map(\.id.rawValue) == [1] && named[0].title == "Home" && named[0].shownDeparture == nil)
        let described = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 90),
                                           Self.visit(2, device: 2, from: 0, to: 30, name: "Café")])
        #expect(described.map(\.id.rawValue) == [2])
    }

    @Test("apart in place or in time, or of one device: separate entries")
    func apart() {
        #expect(VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60),
                                   Self.visit(2, device: 2, from: 0, to: 60, east: 400)]).count == 2)
        #expect(VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60),
                                   Self.visit(2, device: 2, from: 60, to: 90)]).count == 2)
        #expect(VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60),
                                   Self.visit(2, device: 1, from: 30, to: 90)]).count == 2)
        // A third device joins the stay; a second visit of a device already in it does not.
        let groups = VisitFusion.groups([Self.visit(1, device: 1, from: 0, to: 60), Self.visit(2, device: 2, from: 10, to: 50),
                                         Self.visit(3, device: 3, from: 20, to: 70), Self.visit(4, device: 1, from: 65, to: 80)])
        #expect(groups.map { $0.map(\.id.rawValue) } == [[1, 2, 3], [4]])
    }

    @Test("a stay a person deleted stays deleted: one hidden member hides the entry, whichever device recorded the others")
    func hidden() {
        let oneDeleted = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60, hidden: true),
                                            Self.visit(2, device: 2, from: 0, to: 30)])
        #expect(oneDeleted.map(\.id.rawValue) == [2] && oneDeleted[0].hidden)
        let allDeleted = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60, hidden: true),
                                            Self.visit(2, device: 2, from: 0, to: 30, hidden: true)])
        #expect(allDeleted.map(\.id.rawValue) == [1] && allDeleted[0].hidden)
        let noneDeleted = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60), Self.visit(2, device: 2, from: 0, to: 30)])
        #expect(noneDeleted.map(\.id.rawValue) == [1] && !noneDeleted[0].hidden)
    }
}

/// Merging entries of two devices (issue 26: a phone and a watch make one journal, so "merge with
/// next" may join one device's entry with the other's), and undoing it.
@Suite("Merging entries of several devices")
struct CrossDeviceMergeTests {
    static let start = VisitFusionTests.start
    static let cafe = VisitFusionTests.place
    static let office = cafe.destination(bearingDegrees: 0, distanceMeters: 2_000)

    static func visit(_ device: Device, _ from: Double, _ to: Double, at place: Coordinate) -> JournalVisit {
        JournalVisit(deviceID: device.id, source: .google, arrival: start.addingTimeInterval(from * 60),
                     departure: start.addingTimeInterval(to * 60), center: place, radiusMeters: 50, locationCount: 10)
    }

    @Test("the phone's café merged with the watch's office is one entry until the office ends; delete, restore and unmerge undo exactly")
    func mergeAcrossDevices() async throws {
        let store = InMemoryLocationStore()
        let user = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: user.id)
        let watch = try await store.addDevice(named: "watch", userID: user.id)
        let processor = JournalProcessor(store: store, describer: nil)
        // The phone saw the café only (then its battery died); the watch saw the café and the office.
        try await processor.storeDescribedVisits([Self.visit(phone, 0, 40, at: Self.cafe)], device: phone, source: .google)
        _ = try await processor.storeDescribedVisits([Self.visit(watch, 2, 38, at: Self.cafe), Self.visit(watch, 45, 420, at: Self.office),
                                                      Self.visit(watch, 450, 480, at: Self.cafe)], device: watch, source: .google)
        let reader = JournalReader(store: store)
        func shown() async throws -> [(Int64, Double, Double)] {
            try await reader.shownVisits(userID: user.id, from: nil, to: nil).map {
                ($0.id.rawValue, $0.visit.arrival.timeIntervalSince(Self.start) / 60, ($0.shownDeparture ?? .distantFuture).timeIntervalSince(Self.start) / 60)
            }
        }
        let before = try await shown()
        try #require(before.map { [$0.1, $0.2] } == [[0, 40], [45, 420], [450, 480]], "\(before)")
        let editor = JournalEditor(store: store)
        let merged = try await editor.merge(visits: [VisitID(rawValue: before[0].0), VisitID(rawValue: before[1].0)], userID: user.id)
        #expect(merged.id.rawValue == before[0].0)
        let after = try await shown()
        #expect(after.map { [$0.1, $0.2] } == [[0, 420], [450, 480]], "\(after)")
        #expect(after[0].0 == before[0].0)

        try await editor.deleteShown(visit: merged.id, userID: user.id)
        #expect(try await shown().map { [$0.1, $0.2] } == [[450, 480]])
        try await editor.restoreShown(visit: merged.id, userID: user.id)
        #expect(try await shown().map { [$0.1, $0.2] } == [[0, 420], [450, 480]])
        try await editor.unmergeShown(visit: merged.id, userID: user.id)
        let undone = try await shown()
        #expect(undone.map { $0.0 } == before.map { $0.0 } && undone.map { [$0.1, $0.2] } == before.map { [$0.1, $0.2] }, "\(undone)")
        // Re-processing keeps every decision (nothing is detected from the files' visits).
        _ = try await processor.process(device: watch)
        #expect(try await shown().map { [$0.1, $0.2] } == before.map { [$0.1, $0.2] })
    }
}

extension CrossDeviceMergeTests {
    @Test("a stay merged and deleted stays deleted when another device's record of it arrives later (a watch that syncs late)")
    func lateDeviceAfterMergeAndDelete() async throws {
        let store = InMemoryLocationStore()
        let user = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: user.id)
        let watch = try await store.addDevice(named: "watch", userID: user.id)
        let processor = JournalProcessor(store: store, describer: nil)
        let day = [(0.0, 40.0, Self.cafe), (45, 420, Self.office), (450, 480, Self.cafe)]
        _ = try await processor.storeDescribedVisits(day.map { Self.visit(phone, $0.0, $0.1, at: $0.2) }, device: phone, source: .google)
        let reader = JournalReader(store: store)
        let before = try await reader.shownVisits(userID: user.id, from: nil, to: nil)
        let editor = JournalEditor(store: store)
        let merged = try await editor.merge(visits: [before[0].id, before[1].id], userID: user.id)
        try await editor.deleteShown(visit: merged.id, userID: user.id)
        #expect(try await reader.shownVisits(userID: user.id, from: nil, to: nil).count == 1)
        _ = try await processor.storeDescribedVisits(day.map { Self.visit(watch, $0.0 + 1, $0.1 - 1, at: $0.2) }, device: watch, source: .google)
        let after = try await reader.shownVisits(userID: user.id, from: nil, to: nil)
        #expect(after.count == 1, "\(after.map { ($0.visit.deviceID, $0.visit.arrival.timeIntervalSince(Self.start) / 60) })")
    }
}
