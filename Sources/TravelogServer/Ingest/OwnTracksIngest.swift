import TravelogFormats
import TravelogImport
import TravelogStore

/// What an OwnTracks message or body carries, stored the one way whichever way it came (the HTTP
/// route, the MQTT subscriber): locations through the write path under the phone policy (the good
/// ones kept, the wrong ones set aside for the user), then its waypoints and transitions as the
/// user's regions and the device's reported transitions.
struct OwnTracksIngest: Sendable {
    let writer: HistoryWriter
    /// OwnTracks' waypoints and transitions (none: not kept).
    let regions: OwnTracksRegionSync?

    /// Stores the body for the target, durably, before returning.
    /// - Parameters:
    ///   - raw: the body as a rejected item shows it (the MQTT subscriber puts the topic first).
    ///   - route: the route's name for the rejected items and the metrics (`owntracks`, `mqtt`).
    /// - Throws: `HistoryWriteError` when the store failed: nothing of the body may count as stored.
    @discardableResult
    func receive(_ body: SpooledBody, raw: (any RawBody)? = nil, to target: inout DeviceTarget,
                 route: String) async throws(HistoryWriteError) -> HistoryWriter.Outcome {
        var reader = OwnTracksReader(source: body.byteSource())
        let outcome = try await writer.write(reading: &reader, body: raw ?? body, bodyByteCount: body.byteCount, to: &target,
                                             source: .owntracks, visitSource: .file, route: route, policy: .keepValid)
        if let regions {
            do throws(StoreError) {
                if let device = try await regions.device(for: target) { try await regions.receive(body, device: device) }
            } catch {
                throw .store(error)
            }
        }
        return outcome
    }
}
