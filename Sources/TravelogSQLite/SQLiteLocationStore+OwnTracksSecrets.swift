import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore: OwnTracksSecretStore {
    public func setOwnTracksSecret(_ secret: String?, deviceID: DeviceID) async throws(StoreError) {
        try await write("setting a device's OwnTracks secret") { db throws(StoreError) in
            try Self.execute(db, "setting a device's OwnTracks secret", "UPDATE devices SET owntracks_secret = ? WHERE id = ?",
                             [secret, deviceID.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(deviceID) }
        }
    }

    public func ownTracksSecret(deviceID: DeviceID) async throws(StoreError) -> String? {
        try await read("reading a device's OwnTracks secret") { db in
            try String?.fetchOne(db, sql: "SELECT owntracks_secret FROM devices WHERE id = ?", arguments: [deviceID.rawValue]) ?? nil
        }
    }
}
