import Foundation
import TravelogCore

extension LocationStore {
    public func forEachTrackBatch(_ query: LocationQuery, batchSize: Int,
                                  _ body: @Sendable ([Location]) throws -> Void) async throws {
        try await forEachTrackBatchOfRows(query, batchSize: batchSize, body)
    }

    /// ``forEachTrackBatch(_:batchSize:_:)`` from whole rows: what a backend does for queries its
    /// faster read does not cover.
    public func forEachTrackBatchOfRows(_ query: LocationQuery, batchSize: Int,
                                        _ body: @Sendable ([Location]) throws -> Void) async throws {
        try await forEachBatch(query, batchSize: batchSize) { batch in
            try body(batch.map { Location.trackFix($0.location) })
        }
    }
}

extension Location {
    /// A fix as ``LocationStore/forEachTrackBatch(_:batchSize:_:)`` gives it: time, coordinate and
    /// horizontal accuracy, every other field unknown.
    public static func trackFix(_ location: Location) -> Location {
        Location(coordinate: location.coordinate, horizontalAccuracyMeters: location.horizontalAccuracyMeters,
                 timestamp: location.timestamp)
    }
}
