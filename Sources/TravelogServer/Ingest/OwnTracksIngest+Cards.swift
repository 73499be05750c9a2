import Foundation
import TravelogFormats
import TravelogImport
import TravelogStore

extension OwnTracksIngest {
    /// Keeps the body's `card` (the last one, when there are several) as the device's: its name
    /// and face, for the friends the apps show. The device is created when the card is the first
    /// thing it sends (an MQTT phone publishes its card, retained, when it connects). A card
    /// without a name and face, or with one too large, is set aside with the reason.
    /// - Returns: the write of the card set aside, if it was.
    /// - Throws: `HistoryWriteError.store` when the store failed.
    func receiveCards(_ body: SpooledBody, rawPrefix: [UInt8], to target: inout DeviceTarget,
                      route: String) async throws(HistoryWriteError) -> HistoryWriter.Outcome? {
        guard body.byteCount <= OwnTracksRegionSync.maximumBodyBytes,
              let cards = writer.store as? any OwnTracksCardStore else { return nil }
        let bytes = body.bytes(in: 0..<body.byteCount, limit: OwnTracksRegionSync.maximumBodyBytes)
        guard Self.mentionsCard(bytes), let message = OwnTracksCardMessage.cards(in: Data(bytes)).last else { return nil }
        let card: OwnTracksCard
        do throws(OwnTracksCardError) {
            card = try OwnTracksCard(name: message.name, face: message.face)
        } catch {
            let raw = Array((rawPrefix + bytes).prefix(RejectedItem.maximumRawBytes))
            let item = IncomingItem(.refused(error.description), position: "message", raw: .bytes(raw))
            return try await writer.write([item], to: &target, source: .owntracks, visitSource: .file, route: route, policy: .keepValid)
        }
        do throws(StoreError) {
            let device = try await target.resolve(in: writer.store)
            target = .device(device)
            if try await cards.ownTracksCard(deviceID: device.id) != card {
                try await cards.setOwnTracksCard(card, deviceID: device.id)
            }
        } catch {
            throw .store(error)
        }
        return nil
    }

    /// Whether the bytes hold `"card"` (a body of locations is not parsed a second time).
    static func mentionsCard(_ bytes: [UInt8]) -> Bool {
        bytes.containsBytes(cardNeedle)
    }

    private static let cardNeedle = Array("\"card\"".utf8)
}
