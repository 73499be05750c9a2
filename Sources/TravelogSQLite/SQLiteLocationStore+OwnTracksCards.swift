import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore: OwnTracksCardStore {
    public func setOwnTracksCard(_ card: OwnTracksCard?, deviceID: DeviceID) async throws(StoreError) {
        try await write("setting a device's OwnTracks card") { db throws(StoreError) in
            try Self.execute(db, "setting a device's OwnTracks card",
                             "UPDATE devices SET owntracks_card_name = ?, owntracks_card_face = ? WHERE id = ?",
                             [card?.name, card?.face, deviceID.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(deviceID) }
        }
    }

    public func ownTracksCard(deviceID: DeviceID) async throws(StoreError) -> OwnTracksCard? {
        let columns = try await read("reading a device's OwnTracks card") { db -> [String?]? in
            guard let row = try Row.fetchOne(db, sql: "SELECT owntracks_card_name, owntracks_card_face FROM devices WHERE id = ?",
                                             arguments: [deviceID.rawValue]) else { return nil }
            return [row[0], row[1]]
        }
        guard let columns else { return nil }
        return try? OwnTracksCard(name: columns[0], face: columns[1])
    }
}
