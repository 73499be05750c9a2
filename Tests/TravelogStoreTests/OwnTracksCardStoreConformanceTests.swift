import Foundation
import Testing
import TravelogStore

@Suite("OwnTracksCardStore conformance")
struct OwnTracksCardStoreConformanceTests {
    @Test("a device's card is kept as sent, replaced, cleared, and belongs to that device only", arguments: StoreFactory.all)
    func keepsCards(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let cards = try #require(store as? any OwnTracksCardStore, "\(factory.name) keeps no OwnTracks cards")
        let user = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: user.id)
        let watch = try await store.addDevice(named: "watch", userID: user.id)
        #expect(try await cards.ownTracksCard(deviceID: phone.id) == nil)
        let card = try OwnTracksCard(name: "Ada 'L' ; DROP TABLE devices", face: String(repeating: "iVBORw0KGgo=", count: 1000))
        try await cards.setOwnTracksCard(card, deviceID: phone.id)
        #expect(try await cards.ownTracksCard(deviceID: phone.id) == card)
        #expect(try await cards.ownTracksCard(deviceID: watch.id) == nil)
        let nameOnly = try OwnTracksCard(name: "Ada", face: nil)
        try await cards.setOwnTracksCard(nameOnly, deviceID: phone.id)
        #expect(try await cards.ownTracksCard(deviceID: phone.id) == nameOnly)
        try await cards.setOwnTracksCard(nil, deviceID: phone.id)
        #expect(try await cards.ownTracksCard(deviceID: phone.id) == nil)
        let unknown = DeviceID(rawValue: 999_999)
        await #expect(throws: StoreError.unknownDevice(unknown)) { try await cards.setOwnTracksCard(nameOnly, deviceID: unknown) }
        #expect(try await cards.ownTracksCard(deviceID: unknown) == nil)
    }

    @Test("a card needs a name or a face, and neither too long")
    func refusesEmptyAndOversized() {
        #expect(throws: OwnTracksCardError.empty) { try OwnTracksCard(name: "", face: nil) }
        #expect(throws: OwnTracksCardError.nameTooLong(characters: 201)) { try OwnTracksCard(name: String(repeating: "a", count: 201), face: nil) }
        #expect(throws: OwnTracksCardError.faceTooLarge(characters: 200_001)) {
            try OwnTracksCard(name: nil, face: String(repeating: "A", count: 200_001))
        }
    }
}
