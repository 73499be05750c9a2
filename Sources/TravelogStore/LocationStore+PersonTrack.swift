import Foundation
import TravelogCore

extension LocationStore {
    /// Streams the person's fused track (`TrackFusion`) over the locations a query matches, oldest
    /// first, in batches: every figure of a person (statistics, the path's length, the trips'
    /// distances) is measured on it. A query of one device gives that device's own track.
    /// - Parameters:
    ///   - utcOffset: the local offset of a fix's day, seconds (the fusion starts afresh each local day).
    ///   - body: called with each batch of fused fixes (the groups hold the devices'
    ///     `DeviceID.rawValue`s), then once more with the last window's.
    /// - Complexity: one read of the matching rows; memory O(batch + one fusion window).
    public func forEachFusedBatch(_ query: LocationQuery, batchSize: Int = 10_000,
                                  utcOffset: @escaping @Sendable (Location) -> Int = { $0.utcOffsetSeconds ?? 0 },
                                  _ body: @escaping @Sendable ([TrackFusion.Fused]) throws -> Void) async throws {
        let box = FusionBox(TrackFusion { location in
            CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970,
                      utcOffsetSeconds: utcOffset(location)).daysSince1970
        })
        var ordered = query
        ordered.newestFirst = false
        try await forEachBatch(ordered, batchSize: batchSize) { batch in
            var fused: [TrackFusion.Fused] = []
            for stored in batch {
                fused += box.fusion.ingest(TrackFusion.Fix(device: stored.deviceID.rawValue, location: stored.location))
            }
            if !fused.isEmpty { try body(fused) }
        }
        let last = box.fusion.finish()
        if !last.isEmpty { try body(last) }
    }

    /// The distance ledger of the person's fused track over the locations a query matches: the
    /// trips' distances are read from it.
    public func fusedLedger(_ query: LocationQuery,
                            utcOffset: @escaping @Sendable (Location) -> Int = { $0.utcOffsetSeconds ?? 0 }) async throws
        -> DistanceLedger {
        let box = LedgerBox(DistanceLedger(utcOffset: utcOffset))
        try await forEachFusedBatch(query, utcOffset: utcOffset) { batch in
            for fused in batch { box.ledger.add(fused) }
        }
        return box.ledger
    }
}

/// The fusion state, touched only from the store's reading thread, one batch at a time.
private final class FusionBox: @unchecked Sendable {
    var fusion: TrackFusion
    init(_ fusion: TrackFusion) { self.fusion = fusion }
}

/// The ledger being built, touched only from the store's reading thread.
private final class LedgerBox: @unchecked Sendable {
    var ledger: DistanceLedger
    init(_ ledger: DistanceLedger) { self.ledger = ledger }
}
