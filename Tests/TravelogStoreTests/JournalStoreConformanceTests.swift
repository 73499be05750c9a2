import Foundation
import Testing
import TravelogCore
import TravelogStore

/// The contract of `JournalStore`: every backend passes every test here.
@Suite("JournalStore conformance")
struct JournalStoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func visit(_ device: Device, arrivalMinute: Double, departureMinute: Double?, latitude: Double = 52.5,
                      source: VisitSource = .detected) -> JournalVisit {
        JournalVisit(deviceID: device.id, source: source, arrival: t0.addingTimeInterval(arrivalMinute * 60),
                     departure: departureMinute.map { t0.addingTimeInterval($0 * 60) },
                     center: Coordinate(validLatitude: latitude, longitude: 13.4)!, radiusMeters: 30, locationCount: 10,
                     placemark: VisitPlacemark(name: "Berlin", administrativeArea: "Berlin", isoCountryCode: "DE",
                                               timeZone: "Europe/Berlin"))
    }

    @Test("replacing stores new visits once and reports arrivals and completions", arguments: StoreFactory.all)
    func replaceReports(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let first = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil,
                                                  with: [Self.visit(phone, arrivalMinute: 0, departureMinute: nil)])
        #expect(first.arrived.count == 1)
        #expect(first.completed.isEmpty)
        let again = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil,
                                                  with: [Self.visit(phone, arrivalMinute: 0, departureMinute: nil)])
        #expect(again == VisitChanges())
        let done = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil,
                                                 with: [Self.visit(phone, arrivalMinute: 0, departureMinute: 30)])
        #expect(done.arrived.isEmpty)
        #expect(done.completed.map(\.id) == first.arrived.map(\.id))
        let stored = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(stored.count == 1)
        #expect(stored.first?.visit.placemark?.timeZone == "Europe/Berlin")
        #expect(stored.first?.visit.departure == Self.t0.addingTimeInterval(1800))
    }

    @Test("visits are filed under places all at once, or not at all", arguments: StoreFactory.all)
    func assignPlaces(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let changes = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil, with: [
            Self.visit(phone, arrivalMinute: 0, departureMinute: 30),
            Self.visit(phone, arrivalMinute: 60, departureMinute: 90, latitude: 52.6),
        ])
        let place = try await store.addPlace(userID: ada.id, name: "Home", center: Coordinate(validLatitude: 52.5, longitude: 13.4)!,
                                             radiusMeters: 100)
        let (home, office) = (changes.arrived[0].id, changes.arrived[1].id)
        await #expect(throws: StoreError.self) {
            try await store.assignPlaces([home: place.id, office: PlaceID(rawValue: 999_999)])
        }
        var stored = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(stored.allSatisfy { $0.placeID == nil })
        try await store.assignPlaces([home: place.id, office: place.id])
        stored = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(stored.map(\.placeID) == [place.id, place.id])
    }

    @Test("a refined visit keeps its identity and the person's title; a deleted visit never comes back", arguments: StoreFactory.all)
    func decisionsSurvive(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let changes = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil, with: [
            Self.visit(phone, arrivalMinute: 0, departureMinute: 30),
            Self.visit(phone, arrivalMinute: 60, departureMinute: 90, latitude: 52.6),
        ])
        let (home, office) = (changes.arrived[0], changes.arrived[1])
        _ = try await store.editVisit(id: home.id, VisitEdit(title: "Home"))
        _ = try await store.editVisit(id: office.id, VisitEdit(hidden: true))
        // New data moves both arrivals a little: the rows and decisions stay.
        let refined = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil, with: [
            Self.visit(phone, arrivalMinute: -2, departureMinute: 31),
            Self.visit(phone, arrivalMinute: 61, departureMinute: 95, latitude: 52.6),
        ])
        #expect(refined == VisitChanges())
        let shown = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        #expect(shown.map(\.id) == [home.id])
        #expect(shown.first?.title == "Home")
        #expect(shown.first?.visit.arrival == Self.t0.addingTimeInterval(-120))
        // Even when it vanishes for a while and comes back.
        _ = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0.addingTimeInterval(-3600), to: nil,
                                          with: [Self.visit(phone, arrivalMinute: -2, departureMinute: 31)])
        let back = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0.addingTimeInterval(-3600), to: nil, with: [
            Self.visit(phone, arrivalMinute: -2, departureMinute: 31),
            Self.visit(phone, arrivalMinute: 62, departureMinute: 96, latitude: 52.6),
        ])
        #expect(back.arrived.isEmpty)
        #expect(try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false).map(\.id) == [home.id])
        #expect(try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: true).count == 2)
    }

    @Test("a visit elsewhere is a new visit; rows outside the range are left alone", arguments: StoreFactory.all)
    func rangesAndPlaces(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        _ = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil, with: [
            Self.visit(phone, arrivalMinute: 0, departureMinute: 30),
            Self.visit(phone, arrivalMinute: 600, departureMinute: 700),
        ])
        let changes = try await store.replaceVisits(
            deviceID: phone.id, source: .detected, from: Self.t0.addingTimeInterval(300 * 60), to: nil,
            with: [Self.visit(phone, arrivalMinute: 610, departureMinute: 700, latitude: 53.5)])
        #expect(changes.arrived.count == 1)
        let all = try await store.visits(userID: ada.id, deviceIDs: [phone.id], from: nil, to: nil, includeHidden: false)
        #expect(all.map(\.visit.center.latitude) == [52.5, 53.5])
        let window = try await store.visits(userID: ada.id, deviceIDs: nil, from: Self.t0.addingTimeInterval(20 * 60),
                                            to: Self.t0.addingTimeInterval(40 * 60), includeHidden: false)
        #expect(window.count == 1)
        let bob = try await store.addUser(named: "bob")
        #expect(try await store.visits(userID: bob.id, deviceIDs: nil, from: nil, to: nil, includeHidden: true).isEmpty)
    }

    @Test("places are per user and can be named; visits point at them", arguments: StoreFactory.all)
    func places(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let place = try await store.addPlace(userID: ada.id, name: nil, center: Coordinate(validLatitude: 52.5, longitude: 13.4)!,
                                             radiusMeters: 80)
        let renamed = try await store.renamePlace(id: place.id, name: "Home")
        #expect(renamed.name == "Home")
        #expect(try await store.places(userID: ada.id) == [renamed])
        let changes = try await store.replaceVisits(deviceID: phone.id, source: .google, from: Self.t0, to: nil,
                                                    with: [Self.visit(phone, arrivalMinute: 0, departureMinute: 30, source: .google)])
        let edited = try await store.editVisit(id: changes.arrived[0].id, VisitEdit(placeID: .some(place.id)))
        #expect(edited.placeID == place.id)
        #expect(try await store.visit(id: edited.id)?.placeID == place.id)
        await #expect(throws: StoreError.unknownPlace(PlaceID(rawValue: 999_999))) {
            try await store.renamePlace(id: PlaceID(rawValue: 999_999), name: "x")
        }
        await #expect(throws: StoreError.unknownVisit(VisitID(rawValue: 999_999))) {
            try await store.editVisit(id: VisitID(rawValue: 999_999), VisitEdit(hidden: true))
        }
        let bob = try await store.addUser(named: "bob")
        #expect(try await store.places(userID: bob.id).isEmpty)
    }
}
