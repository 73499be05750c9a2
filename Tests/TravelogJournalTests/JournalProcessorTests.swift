import Foundation
import Testing
import TravelogCore
import TravelogJournal
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// A fixed describer: every place is in Berlin.
struct BerlinDescriber: PlaceDescriber {
    func placemark(for coordinate: Coordinate) -> VisitPlacemark? {
        VisitPlacemark(name: "Berlin", administrativeArea: "Berlin", country: "Germany", isoCountryCode: "DE",
                       timeZone: "Europe/Berlin")
    }
}

@Suite("The journal processor")
struct JournalProcessorTests {
    static let day = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z
    static let home = Coordinate(validLatitude: 52.52, longitude: 13.405)!
    static let office = Coordinate(validLatitude: 52.50, longitude: 13.45)!

    /// A day: home until 08:00, a 30-minute walk, the office until 17:00, the walk back, home. A fix a
    /// minute with a few metres of jitter.
    static func dayOfFixes() -> [Location] {
        var random = SplitMix64(seed: 7)
        var fixes: [Location] = []
        func jitter(_ c: Coordinate) -> Coordinate {
            Coordinate(validLatitude: c.latitude + (Double(random.next() % 100) - 50) * 1e-7 * 3,
                       longitude: c.longitude + (Double(random.next() % 100) - 50) * 1e-7 * 3)!
        }
        for minute in 0..<(24 * 60) {
            let time = day.addingTimeInterval(Double(minute) * 60)
            let place: Coordinate
            switch minute {
            case ..<480: place = home
            case 480..<510: place = interpolate(home, office, Double(minute - 480) / 30)
            case 510..<1020: place = office
            case 1020..<1050: place = interpolate(office, home, Double(minute - 1020) / 30)
            default: place = home
            }
            fixes.append(Location(coordinate: jitter(place), horizontalAccuracyMeters: 10, timestamp: time))
        }
        return fixes
    }

    static func interpolate(_ a: Coordinate, _ b: Coordinate, _ t: Double) -> Coordinate {
        Coordinate(validLatitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t)!
    }

    static func prepared() async throws -> (SQLiteLocationStore, Device) {
        let store = try SQLiteLocationStore(path: TestDirectory.url.appendingPathComponent("journal-\(UUID().uuidString)/db.sqlite").path)
        let user = try await store.addUser(named: "ada")
        let device = try await store.addDevice(named: "phone", userID: user.id)
        return (store, device)
    }

    static func store(_ fixes: some Sequence<Location>, in store: SQLiteLocationStore, device: Device) async throws {
        _ = try await store.insert(fixes.map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
    }

    @Test("a day gives home, office, home; the last visit is still going on; each is described and filed under a place")
    func wholeDay() async throws {
        let (store, device) = try await Self.prepared()
        let fixes = Self.dayOfFixes()
        try await Self.store(fixes, in: store, device: device)
        // Processed ten minutes after the last fix: the data is recent.
        let now = fixes[fixes.count - 1].timestamp.addingTimeInterval(600)
        let processor = JournalProcessor(store: store, describer: BerlinDescriber(), now: { now })
        let changes = try await processor.process(device: device)
        #expect(changes.arrived.count == 3)
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.count == 3)
        #expect(visits.map { $0.visit.center.distanceMeters(to: [Self.home, Self.office, Self.home][visits.firstIndex(of: $0)!]) < 20 } == [true, true, true])
        #expect(visits.last?.visit.departure == nil)
        #expect(visits.allSatisfy { $0.visit.placemark?.timeZone == "Europe/Berlin" })
        let places = try await store.places(userID: device.userID)
        #expect(places.count == 2)
        #expect(visits[0].placeID == visits[2].placeID)
    }

    @Test("the last stay of data that ended long ago is not ongoing: it ends at its last fix")
    func oldDataIsNotOngoing() async throws {
        let (store, device) = try await Self.prepared()
        let fixes = Self.dayOfFixes()
        try await Self.store(fixes, in: store, device: device)
        let later = fixes[fixes.count - 1].timestamp.addingTimeInterval(HistoryGap.defaultMaximumSilenceSeconds + 1)
        _ = try await JournalProcessor(store: store, describer: nil, now: { later }).process(device: device)
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.count == 3)
        #expect(visits.last?.visit.departure == fixes[fixes.count - 1].timestamp)
    }

    @Test("a gap of weeks at home splits the stay: two visits, neither across the gap")
    func gapSplitsStay() async throws {
        let (store, device) = try await Self.prepared()
        let fixes = Self.dayOfFixes()
        let weeksLater = fixes.map { fix in
            var moved = fix
            moved.timestamp = fix.timestamp.addingTimeInterval(21 * 86_400)
            return moved
        }
        try await Self.store(fixes + weeksLater, in: store, device: device)
        _ = try await JournalProcessor(store: store, describer: nil).process(device: device)
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.count == 6)
        let end = try #require(fixes.last?.timestamp)
        #expect(!visits.contains { $0.visit.arrival <= end && ($0.visit.departure ?? .distantFuture) > end })
    }

    @Test("feeding the day in chunks, re-processing only what each chunk touched, gives the visits of the whole day")
    func incrementalEqualsWhole() async throws {
        let fixes = Self.dayOfFixes()
        let (whole, wholeDevice) = try await Self.prepared()
        try await Self.store(fixes, in: whole, device: wholeDevice)
        _ = try await JournalProcessor(store: whole, describer: nil).process(device: wholeDevice)
        let expected = try await whole.visits(userID: wholeDevice.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)

        let (chunked, device) = try await Self.prepared()
        let processor = JournalProcessor(store: chunked, describer: nil)
        var random = SplitMix64(seed: 99)
        var index = 0
        var arrivals = 0
        while index < fixes.count {
            let size = 1 + Int(random.next() % 200)
            let chunk = fixes[index..<min(fixes.count, index + size)]
            try await Self.store(chunk, in: chunked, device: device)
            let changes = try await processor.process(device: device, from: chunk.first?.timestamp, to: chunk.last?.timestamp)
            arrivals += changes.arrived.count
            index += size
        }
        let found = try await chunked.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.center) == expected.map(\.visit.center))
        #expect(arrivals == 3, "each visit arrives once, however the data comes")
    }

    /// `days` days of `dayOfFixes`, every third day away from home (the office is moved by a
    /// day-dependent offset) and a silent week in the middle.
    static func weeksOfFixes(days: Int) -> [Location] {
        let day = dayOfFixes()
        return (0..<days).filter { !(14..<21).contains($0) }.flatMap { index in
            day.map { fix in
                var moved = fix
                moved.timestamp = fix.timestamp.addingTimeInterval(Double(index) * 86_400)
                if index % 3 == 2 {
                    moved.coordinate = Coordinate(validLatitude: fix.coordinate.latitude + 0.01 * Double(index % 5),
                                                  longitude: fix.coordinate.longitude)!
                }
                return moved
            }
        }
    }

    @Test("a long history read and stored in windows gives the visits and places of one read, and keeps a renamed entry's name")
    func windowedEqualsWhole() async throws {
        let fixes = Self.weeksOfFixes(days: 40)
        let now = fixes[fixes.count - 1].timestamp.addingTimeInterval(600)
        let (whole, wholeDevice) = try await Self.prepared()
        try await Self.store(fixes, in: whole, device: wholeDevice)
        var oneRead = JournalProcessor(store: whole, describer: BerlinDescriber(), now: { now })
        oneRead.windowSeconds = .greatestFiniteMagnitude
        let wholeChanges = try await oneRead.process(device: wholeDevice)
        let expected = try await whole.visits(userID: wholeDevice.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(expected.count > 60, "the history makes many visits (\(expected.count))")

        let (windowed, device) = try await Self.prepared()
        try await Self.store(fixes, in: windowed, device: device)
        var inWindows = JournalProcessor(store: windowed, describer: BerlinDescriber(), now: { now })
        inWindows.windowSeconds = 2 * 86_400
        inWindows.flushVisitCount = 3
        let changes = try await inWindows.process(device: device)
        let found = try await windowed.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(found.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(found.map(\.visit.departure) == expected.map(\.visit.departure))
        #expect(found.map(\.visit.center) == expected.map(\.visit.center))
        #expect(found.map(\.visit.locationCount) == expected.map(\.visit.locationCount))
        #expect(changes.arrivedCount == wholeChanges.arrivedCount)
        #expect(changes.arrivedCount == expected.count)
        #expect(try await windowed.places(userID: device.userID).count == (try await whole.places(userID: wholeDevice.userID)).count)
        #expect(found.last?.visit.departure == nil, "the last stay is recent: still going on")

        // A person's name for an entry in the middle survives re-processing everything in windows.
        let middle = found[found.count / 2]
        _ = try await windowed.editVisit(id: middle.id, VisitEdit(title: "Grandma's"))
        _ = try await inWindows.process(device: device)
        let again = try await windowed.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(again.map(\.visit.arrival) == expected.map(\.visit.arrival))
        #expect(again.first { $0.id == middle.id }?.title == "Grandma's")
    }

    @Test("a long run keeps the latest changes and counts every arrival")
    func changesOfALongRunAreBounded() {
        func visit(_ index: Int) -> StoredVisit {
            StoredVisit(id: VisitID(rawValue: Int64(index)),
                        visit: JournalVisit(deviceID: DeviceID(rawValue: 1), source: .detected,
                                            arrival: Date(timeIntervalSince1970: Double(index) * 3600),
                                            departure: Date(timeIntervalSince1970: Double(index) * 3600 + 600),
                                            center: Self.home, radiusMeters: 50, locationCount: 10, placemark: nil))
        }
        var changes = VisitChanges()
        for step in 0..<5 {
            let ids = (step * 700)..<((step + 1) * 700)
            changes.absorb(VisitChanges(arrived: ids.map(visit), completed: ids.map(visit)))
        }
        #expect(changes.arrivedCount == 3_500)
        #expect(changes.arrived.count == VisitChanges.retainedLimit)
        #expect(changes.arrived.last?.id.rawValue == 3_499)
        #expect(changes.completed.first?.id.rawValue == Int64(3_500 - VisitChanges.retainedLimit))
    }

    @Test("a deleted entry stays deleted and a renamed one keeps its name when late data re-processes the day")
    func decisionsSurviveReprocessing() async throws {
        let fixes = Self.dayOfFixes()
        let (store, device) = try await Self.prepared()
        // The day without every third fix of the office stay, then the rest arrives late.
        let early = fixes.enumerated().filter { !($0.offset >= 510 && $0.offset < 1020 && $0.offset % 3 == 0) }.map(\.element)
        let late = fixes.enumerated().filter { $0.offset >= 510 && $0.offset < 1020 && $0.offset % 3 == 0 }.map(\.element)
        try await Self.store(early, in: store, device: device)
        let processor = JournalProcessor(store: store, describer: nil)
        _ = try await processor.process(device: device)
        let visits = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(visits.count == 3)
        _ = try await store.editVisit(id: visits[0].id, VisitEdit(title: "Morning at home"))
        _ = try await store.editVisit(id: visits[1].id, VisitEdit(hidden: true))
        try await Self.store(late, in: store, device: device)
        let changes = try await processor.process(device: device, from: late.first?.timestamp, to: late.last?.timestamp)
        #expect(changes.arrived.isEmpty)
        _ = try await processor.process(device: device)
        let after = try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(after.map(\.id) == [visits[0].id, visits[2].id])
        #expect(after.first?.title == "Morning at home")
    }
}
