import TravelogFormats
import TravelogImport
import TravelogStore

/// What an OwnTracks message or body carries, stored the one way whichever way it came (the HTTP
/// route, the MQTT subscriber): locations through the write path under the phone policy (the good
/// ones kept, the wrong ones set aside for the user), then its waypoints and transitions as the
/// user's regions and the device's reported transitions, and its `card` as the device's. The other
/// types (`lwt`, `status`, `cmd`, `configuration`, `steps`…) are read and passed over: valid, never
/// set aside.
struct OwnTracksIngest: Sendable {
    let writer: HistoryWriter
    /// OwnTracks' waypoints and transitions (none: not kept).
    let regions: OwnTracksRegionSync?

    /// Stores the body for the target, durably, before returning. A body that is one `encrypted`
    /// message is opened with the device's secret first (`OwnTracksEncryption`); one that cannot be
    /// opened is set aside whole, with the reason.
    /// - Parameters:
    ///   - rawPrefix: a line put before the item in rejected items (the MQTT subscriber's topic).
    ///   - route: the route's name for the rejected items and the metrics (`owntracks`, `mqtt`).
    ///   - userAgent: the app's `User-Agent` (HTTP), for the device's status.
    /// - Throws: `HistoryWriteError` when the store failed: nothing of the body may count as stored.
    @discardableResult
    func receive(_ body: SpooledBody, rawPrefix: String? = nil, to target: inout DeviceTarget,
                 route: String, userAgent: String? = nil) async throws(HistoryWriteError) -> HistoryWriter.Outcome {
        var body = body
        let prefix = rawPrefix.map { Array("\($0)\n".utf8) } ?? []
        if body.byteCount <= OwnTracksEncryption.maximumMessageBytes {
            let bytes = body.bytes(in: 0..<body.byteCount, limit: OwnTracksEncryption.maximumMessageBytes)
            if let data = OwnTracksEncryption.encryptedData(in: bytes) {
                switch try await decrypt(data, for: target) {
                case .success(let plaintext):
                    body = SpooledBody(bytes: plaintext)
                case .failure(let reason):
                    let item = IncomingItem(.refused(reason.description), position: "message", raw: .bytes(prefix + bytes))
                    return try await writer.write([item], to: &target, source: .owntracks, visitSource: .file, route: route,
                                                  policy: .keepValid)
                }
            }
        }
        var reader = OwnTracksReader(source: body.byteSource())
        let raw: any RawBody = prefix.isEmpty ? body : PrefixedBody(prefix: prefix, body: body)
        var outcome = try await writer.write(reading: &reader, body: raw, bodyByteCount: body.byteCount, to: &target,
                                             source: .owntracks, visitSource: .file, route: route, policy: .keepValid,
                                             userAgent: userAgent)
        if let refused = try await receiveCards(body, rawPrefix: prefix, to: &target, route: route) {
            outcome.refused += refused.refused
            outcome.quarantined += refused.quarantined
        }
        if let regions {
            do throws(StoreError) {
                if let device = try await regions.device(for: target) { try await regions.receive(body, device: device) }
            } catch {
                throw .store(error)
            }
        }
        return outcome
    }

    /// Why an encrypted message stays closed.
    enum DecryptionFailure: Error, CustomStringConvertible {
        case noSecret(device: String)
        case wrongSecret

        var description: String {
            switch self {
            case .noSecret(let device): "cannot decrypt: no OwnTracks secret is set for device '\(device)' (travelog device secret \(device))"
            case .wrongSecret: "cannot decrypt: wrong secret?"
            }
        }
    }

    /// The plaintext of an `encrypted` message's data, opened with the target device's secret.
    func decrypt(_ data: String, for target: DeviceTarget) async throws(HistoryWriteError) -> Result<[UInt8], DecryptionFailure> {
        do throws(StoreError) {
            let device: Device? = switch target {
            case .device(let device): device
            case .named(let name, let userID, _): try await writer.store.device(named: name, userID: userID)
            }
            guard let device, let secrets = writer.store as? any OwnTracksSecretStore,
                  let secret = try await secrets.ownTracksSecret(deviceID: device.id) else {
                return .failure(.noSecret(device: target.name))
            }
            return OwnTracksEncryption.decrypt(data, secret: secret).map { .success($0) } ?? .failure(.wrongSecret)
        } catch {
            throw .store(error)
        }
    }
}

/// A body as its rejected items show it: a line (an MQTT message's topic) before each item, as the
/// phone routes show the query before the body.
struct PrefixedBody: RawBody {
    let prefix: [UInt8]
    let body: SpooledBody

    func bytes(in range: Range<Int>, limit: Int) -> [UInt8] {
        Array((prefix + body.bytes(in: range, limit: limit)).prefix(limit))
    }
}
