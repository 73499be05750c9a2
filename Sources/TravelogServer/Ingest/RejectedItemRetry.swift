import Foundation
import TravelogImport
import TravelogStore

/// Sends a rejected OwnTracks message (HTTP or MQTT) through its route's reading and the one write
/// path again, for the one case where the answer can change: an `encrypted` message set aside
/// before its device's secret was set (or with a wrong one). Other routes' items were refused by
/// rules that do not change (no time, latitude 200), so they are not offered a retry; an item cut
/// to `RejectedItem.maximumRawBytes` cannot be sent again either. The item leaves the list only
/// once what it carries is durably stored, or when a new, more precise entry replaced it (the
/// message opened, but a location inside it is wrong).
public struct RejectedItemRetry: Sendable {
    public let writer: HistoryWriter

    public init(writer: HistoryWriter) {
        self.writer = writer
    }

    /// What a retry did.
    public enum Result: Sendable, Equatable {
        /// Stored (new and already-known locations); the item left the list.
        case stored(inserted: Int, duplicates: Int)
        /// Refused again. `replaced`: a new entry with the new reason took the item's place.
        case refusedAgain(replaced: Bool)
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case unknown(RejectedItemID)
        case notRetryable(String)
        /// The message still cannot be read: why, now.
        case stillRefused(String)
        case write(HistoryWriteError)
        case store(StoreError)

        public var description: String {
            switch self {
            case .unknown(let id): "no rejected item \(id.rawValue)"
            case .notRetryable(let why): why
            case .stillRefused(let why): "refused again: \(why)"
            case .write(let error): error.description
            case .store(let error): error.description
            }
        }
    }

    /// The routes whose items a retry may store.
    static let routes: Set<String> = ["owntracks", "mqtt"]

    /// Whether `retry` can send the item again (otherwise it says why not).
    public static func isRetryable(_ item: RejectedItem) -> Bool {
        whyNot(item) == nil
    }

    static func whyNot(_ item: RejectedItem) -> String? {
        guard routes.contains(item.route) else {
            return "a \(item.route) item is refused by rules that do not change: only OwnTracks messages (which a secret set later may open) are sent again"
        }
        guard item.deviceID != nil else { return "the item names no device of yours" }
        guard !item.raw.isEmpty, item.raw.utf8.count == item.rawByteCount else {
            return "only the first \(item.raw.utf8.count) of its \(item.rawByteCount) bytes were kept: it cannot be sent again"
        }
        return nil
    }

    public func retry(_ id: RejectedItemID, userID: UserID) async throws(Failure) -> Result {
        let store = writer.store
        let found: RejectedItem?
        do {
            found = try await store.rejectedItems(userID: userID, limit: 1_000_000).first { $0.id == id }
        } catch {
            throw .store(error)
        }
        guard let item = found else { throw .unknown(id) }
        if let why = Self.whyNot(item) { throw .notRetryable(why) }
        let owned: Device?
        do {
            owned = if let deviceID = item.deviceID { try await store.device(id: deviceID) } else { nil }
        } catch {
            throw .store(error)
        }
        guard let device = owned, device.userID == userID else { throw .notRetryable("the item's device is gone") }
        // MQTT's items carry the topic on their first line: kept as the prefix, so a message refused
        // again is the same entry (the same fingerprint), not a second one.
        var prefix: String?
        var message = item.raw
        if item.route == "mqtt", let newline = item.raw.firstIndex(of: "\n") {
            prefix = String(item.raw[..<newline])
            message = String(item.raw[item.raw.index(after: newline)...])
        }
        var target = DeviceTarget.device(device)
        let ingest = OwnTracksIngest(writer: writer, regions: nil)
        let bytes = Array(message.utf8)
        // An encrypted message that still does not open says why now (no secret, a wrong one), and
        // the list is left as it was.
        if let data = OwnTracksEncryption.encryptedData(in: bytes) {
            let opened: Swift.Result<[UInt8], OwnTracksIngest.DecryptionFailure>
            do {
                opened = try await ingest.decrypt(data, for: target)
            } catch {
                throw .write(error)
            }
            if case .failure(let reason) = opened { throw .stillRefused(reason.description) }
        }
        let outcome: HistoryWriter.Outcome
        do {
            outcome = try await ingest.receive(SpooledBody(bytes: bytes), rawPrefix: prefix, to: &target, route: item.route)
        } catch {
            throw .write(error)
        }
        let keep = outcome.refused > 0 && outcome.quarantined == 0
        if !keep {
            do {
                _ = try await store.deleteRejectedItems(userID: userID, ids: [id])
            } catch {
                throw .store(error)
            }
        }
        return outcome.refused > 0 ? .refusedAgain(replaced: !keep)
            : .stored(inserted: outcome.stored.inserted, duplicates: outcome.stored.duplicates)
    }
}
