import Foundation
import Testing
import TravelogCore
import TravelogStore

/// The contract of `LabelStore`: every backend passes every test here.
@Suite("LabelStore conformance")
struct LabelStoreConformanceTests {
    static func fix(_ seconds: Double, latitude: Double = 52.5) -> Location {
        LocationStoreConformanceTests.fix(latitude, 13.4, secondsAfter: seconds)
    }

    static func label(_ kind: LocationLabel.Kind, _ text: String) throws -> LocationLabel {
        try #require(LocationLabel(kind: kind, text: text))
    }

    @Test("labels are kept on their fixes and read by user, device and time, oldest first; the same kind again replaces the text", arguments: StoreFactory.all)
    func keepAndRead(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let labels = try #require(store as? any LabelStore)
        let watch = try await store.addDevice(named: "watch", userID: ada.id)
        let bob = try await store.addUser(named: "bob")
        let bobPhone = try await store.addDevice(named: "phone", userID: bob.id)
        let fixes = [Self.fix(0), Self.fix(60, latitude: 52.6), Self.fix(120, latitude: 52.7)]
        _ = try await store.insert(fixes.map { StoredLocation(deviceID: phone.id, location: $0, source: .owntracks) })
        _ = try await store.insert([StoredLocation(deviceID: watch.id, location: fixes[1], source: .owntracks),
                                    StoredLocation(deviceID: bobPhone.id, location: fixes[0], source: .owntracks)])
        let lunch = StoredLabel(deviceID: phone.id, location: fixes[1], label: try Self.label(.pointOfInterest, "Lunch"))
        let tagged = StoredLabel(deviceID: phone.id, location: fixes[1], label: try Self.label(.tag, "work"))
        let first = StoredLabel(deviceID: phone.id, location: fixes[0], label: try Self.label(.waypoint, "Start"))
        let onWatch = StoredLabel(deviceID: watch.id, location: fixes[1], label: try Self.label(.pointOfInterest, "Watch"))
        let bobs = StoredLabel(deviceID: bobPhone.id, location: fixes[0], label: try Self.label(.pointOfInterest, "Bob's"))
        #expect(try await labels.addLabels([tagged, lunch, first, onWatch, bobs]) == 5)
        #expect(try await labels.addLabels([lunch, tagged]) == 0, "the same labels again change nothing")

        let all = try await labels.labels(userID: ada.id, deviceIDs: nil, from: nil, to: nil, limit: 100)
        #expect(all.map(\.label.text) == ["Start", "Lunch", "work", "Watch"], "by time, then device, then kind")
        #expect(all[1].timestamp == StoragePrecision.rounded(fixes[1]).timestamp)
        #expect(all[1].coordinate == StoragePrecision.rounded(fixes[1]).coordinate)
        #expect(try await labels.labels(userID: ada.id, deviceIDs: [watch.id], from: nil, to: nil, limit: 100).map(\.label.text) == ["Watch"])
        #expect(try await labels.labels(userID: ada.id, deviceIDs: [], from: nil, to: nil, limit: 100).isEmpty)
        #expect(try await labels.labels(userID: ada.id, deviceIDs: [bobPhone.id], from: nil, to: nil, limit: 100).isEmpty,
                "another user's device reads nothing")
        #expect(try await labels.labels(userID: ada.id, deviceIDs: nil, from: fixes[1].timestamp, to: fixes[2].timestamp,
                                        limit: 100).map(\.label.text) == ["Lunch", "work", "Watch"], "from is inclusive, to exclusive")
        #expect(try await labels.labels(userID: ada.id, deviceIDs: nil, from: nil, to: nil, limit: 2).count == 2)
        #expect(try await labels.labels(userID: bob.id, deviceIDs: nil, from: nil, to: nil, limit: 100).map(\.label.text) == ["Bob's"])

        // The same kind on the same fix again: the new text.
        let renamed = StoredLabel(deviceID: phone.id, location: fixes[1], label: try Self.label(.pointOfInterest, "Lunch at Kaisla"))
        #expect(try await labels.addLabels([renamed]) == 1)
        #expect(try await labels.labels(userID: ada.id, deviceIDs: [phone.id], from: nil, to: nil, limit: 100).map(\.label.text)
                == ["Start", "Lunch at Kaisla", "work"])
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 9_999))) {
            try await labels.addLabels([StoredLabel(deviceID: DeviceID(rawValue: 9_999), location: fixes[0], label: try Self.label(.tag, "x"))])
        }
    }

    @Test("a label shows only while its fix is stored: one never stored, or deleted since, is not read; a deleted device takes its labels", arguments: StoreFactory.all)
    func onlyWithItsFix(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let labels = try #require(store as? any LabelStore)
        let fixes = [Self.fix(0), Self.fix(60, latitude: 52.6)]
        _ = try await store.insert(fixes.map { StoredLocation(deviceID: phone.id, location: $0, source: .owntracks) })
        let elsewhere = Self.fix(0, latitude: 40) // the same time, another place: not a stored fix
        try await labels.addLabels([StoredLabel(deviceID: phone.id, location: fixes[0], label: try Self.label(.pointOfInterest, "Home")),
                                    StoredLabel(deviceID: phone.id, location: fixes[1], label: try Self.label(.pointOfInterest, "Cafe")),
                                    StoredLabel(deviceID: phone.id, location: elsewhere, label: try Self.label(.pointOfInterest, "Nowhere"))])
        #expect(try await labels.labels(userID: ada.id, deviceIDs: nil, from: nil, to: nil, limit: 100).map(\.label.text) == ["Home", "Cafe"])
        #expect(try await store.deleteLocations([StoredLocation(deviceID: phone.id, location: fixes[1], source: .owntracks).key],
                                                userID: ada.id) == 1)
        #expect(try await labels.labels(userID: ada.id, deviceIDs: nil, from: nil, to: nil, limit: 100).map(\.label.text) == ["Home"])
        try await store.deleteDevice(id: phone.id)
        #expect(try await labels.labels(userID: ada.id, deviceIDs: nil, from: nil, to: nil, limit: 100).isEmpty)
    }
}
