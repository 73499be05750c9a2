import Foundation
import TravelogCore

/// `travelog photos geotag`: reads each photo, works out its instant (`CameraClock`) and places the
/// ones without a GPS position by the history (`PhotoPlacer`), never inside a privacy zone.
/// Writes nothing.
public struct PhotoGeotagger: Sendable {
    public var clock: CameraClock
    public var placer: PhotoPlacer
    /// The name of the privacy zone that holds a position (`PhotoPrivacyZones.zoneName(containing:)`),
    /// or `nil`; a position inside one is refused (`.insidePrivacyZone`).
    public var privacyZone: @Sendable (Coordinate) -> String?

    public init(clock: CameraClock = .automatic, placer: PhotoPlacer = PhotoPlacer(),
                privacyZone: @escaping @Sendable (Coordinate) -> String? = { _ in nil }) {
        self.clock = clock
        self.placer = placer
        self.privacyZone = privacyZone
    }

    /// What became of one file.
    public struct Result: Hashable, Sendable {
        public var path: String
        /// `nil` when the file could not be read (`error` says why).
        public var metadata: PhotoMetadata?
        public var error: PhotoMetadataError?
        public var instant: Date?
        public var offsetSource: CameraClock.Source?
        /// `nil` for a photo that has its own GPS position (it is left as it is) or could not be read.
        public var placement: PhotoPlacement?
        /// An interpolated placement's altitude: between the fixes' at the photo's share of the time,
        /// when both fixes have one.
        public var altitudeMeters: Double? = nil

    }

    /// Places one file.
    public func geotag(path: String, history: any PhotoHistory) async throws -> Result {
        let metadata: PhotoMetadata
        do {
            metadata = try PhotoMetadataReader.read(path: path)
        } catch {
            return Result(path: path, metadata: nil, error: error, instant: nil, offsetSource: nil, placement: nil)
        }
        return try await geotag(metadata, history: history)
    }

    /// Places a photo already read.
    public func geotag(_ metadata: PhotoMetadata, history: any PhotoHistory) async throws -> Result {
        var result = Result(path: metadata.path, metadata: metadata, error: nil, instant: nil, offsetSource: nil, placement: nil)
        guard let capture = metadata.captureTime else {
            if metadata.position == nil { result.placement = .unplaced(.noCaptureTime) }
            return result
        }
        guard let (instant, source) = try await clock.instant(of: capture, zoneNear: { try await history.timeZone(near: $0) }) else {
            if metadata.position == nil { result.placement = .unplaced(.noCameraOffset) }
            return result
        }
        result.instant = instant
        result.offsetSource = source
        guard metadata.position == nil else { return result }
        let visits = try await history.visits(holding: instant)
        let (before, after) = try await history.fixes(around: instant)
        let placement = placer.place(at: instant, before: before, after: after, visits: visits)
        if let coordinate = placement.coordinate, let zone = privacyZone(coordinate) {
            result.placement = .unplaced(.insidePrivacyZone(name: zone))
            return result
        }
        result.placement = placement
        if case .interpolated = placement, let before, let after, let low = before.altitudeMeters, let high = after.altitudeMeters {
            let gap = after.timestamp.timeIntervalSince(before.timestamp)
            let fraction = gap > 0 ? min(1, max(0, instant.timeIntervalSince(before.timestamp) / gap)) : 0
            result.altitudeMeters = low + (high - low) * fraction
        }
        return result
    }
}
