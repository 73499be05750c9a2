import Foundation
import Testing
import TravelogStore

@Suite("OwnTracksSecretStore conformance")
struct OwnTracksSecretStoreConformanceTests {
    @Test("a device's secret is kept as typed, replaced, cleared, and belongs to that device only", arguments: StoreFactory.all)
    func keepsSecrets(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let secrets = try #require(store as? any OwnTracksSecretStore, "\(factory.name) keeps no OwnTracks secrets")
        let user = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: user.id)
        let watch = try await store.addDevice(named: "watch", userID: user.id)
        #expect(try await secrets.ownTracksSecret(deviceID: phone.id) == nil)
        try await secrets.setOwnTracksSecret("späť 'quoted' ; DROP TABLE devices", deviceID: phone.id)
        #expect(try await secrets.ownTracksSecret(deviceID: phone.id) == "späť 'quoted' ; DROP TABLE devices")
        #expect(try await secrets.ownTracksSecret(deviceID: watch.id) == nil)
        try await secrets.setOwnTracksSecret("second", deviceID: phone.id)
        #expect(try await secrets.ownTracksSecret(deviceID: phone.id) == "second")
        try await secrets.setOwnTracksSecret(nil, deviceID: phone.id)
        #expect(try await secrets.ownTracksSecret(deviceID: phone.id) == nil)
        let unknown = DeviceID(rawValue: 999_999)
        await #expect(throws: StoreError.unknownDevice(unknown)) { try await secrets.setOwnTracksSecret("x", deviceID: unknown) }
        #expect(try await secrets.ownTracksSecret(deviceID: unknown) == nil)
    }
}
