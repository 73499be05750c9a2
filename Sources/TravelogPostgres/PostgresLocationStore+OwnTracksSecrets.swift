import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: OwnTracksSecretStore {
    public func setOwnTracksSecret(_ secret: String?, deviceID: DeviceID) async throws(StoreError) {
        let changed = try await rows("setting a device's OwnTracks secret",
                                     "UPDATE devices SET owntracks_secret = \(secret) WHERE id = \(deviceID.rawValue) RETURNING id")
        guard changed.count == 1 else { throw .unknownDevice(deviceID) }
    }

    public func ownTracksSecret(deviceID: DeviceID) async throws(StoreError) -> String? {
        let found = try await rows("reading a device's OwnTracks secret",
                                   "SELECT owntracks_secret FROM devices WHERE id = \(deviceID.rawValue)")
        guard let row = found.first else { return nil }
        return try Self.decode(row, as: String?.self, "reading a device's OwnTracks secret")
    }
}
