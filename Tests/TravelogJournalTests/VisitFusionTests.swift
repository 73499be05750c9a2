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

    @Test("deleted only when every member is: a member deleted before is not what the entry shows")
    func hidden() {
        let oneDeleted = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60, hidden: true),
                                            Self.visit(2, device: 2, from: 0, to: 30)])
        #expect(oneDeleted.map(\.id.rawValue) == [2] && !oneDeleted[0].hidden)
        let allDeleted = VisitFusion.fused([Self.visit(1, device: 1, from: 0, to: 60, hidden: true),
                                            Self.visit(2, device: 2, from: 0, to: 30, hidden: true)])
        #expect(allDeleted.map(\.id.rawValue) == [1] && allDeleted[0].hidden)
    }
}
