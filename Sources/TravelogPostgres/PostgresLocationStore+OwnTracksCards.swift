import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: OwnTracksCardStore {
    public func setOwnTracksCard(_ card: OwnTracksCard?, deviceID: DeviceID) async throws(StoreError) {
        let changed = try await rows("setting a device's OwnTracks card", """
            UPDATE devices SET owntracks_card_name = \(card?.name), owntracks_card_face = \(card?.face)
            WHERE id = \(deviceID.rawValue) RETURNING id
            """)
        guard changed.count == 1 else { throw .unknownDevice(deviceID) }
    }

    public func ownTracksCard(deviceID: DeviceID) async throws(StoreError) -> OwnTracksCard? {
        let found = try await rows("reading a device's OwnTracks card",
                                   "SELECT owntracks_card_name, owntracks_card_face FROM devices WHERE id = \(deviceID.rawValue)")
        guard let row = found.first else { return nil }
        let (name, face) = try Self.decode(row, as: (String?, String?).self, "reading a device's OwnTracks card")
        return try? OwnTracksCard(name: name, face: face)
    }
}
