import Foundation
import TravelogCore

/// Places a photo by the history (issue 32 item 2): inside a journal visit, at the visit's centre;
/// otherwise on the WGS84 geodesic between the fixes just before and just after its time, at the
/// photo's share of the time between them, when those fixes are at most `maxGapSeconds` apart (as
/// ExifTool's `-geotag` does with `GeoMaxIntSecs`, but along the geodesic rather than linearly in
/// latitude and longitude).
///
/// The accuracy of an interpolated position is the worse of the two fixes' accuracies (0 when a
/// source gave none) plus the distance to the nearer fix: a person who did not move steadily between
/// the fixes was at most about that far from the line near the photo's time, and a photo at a fix's
/// time is as sure as that fix.
public struct PhotoPlacer: Sendable {
    /// The largest time between the fixes around a photo for it to be placed between them, seconds.
    public var maxGapSeconds: Double

    public init(maxGapSeconds: Double = 300) {
        self.maxGapSeconds = maxGapSeconds
    }

    /// A journal visit as far as placing needs it.
    public struct Visit: Hashable, Sendable {
        public var arrival: Date
        /// `nil` while the stay goes on.
        public var departure: Date?
        public var center: Coordinate
        public var radiusMeters: Double

        public init(arrival: Date, departure: Date?, center: Coordinate, radiusMeters: Double) {
            self.arrival = arrival
            self.departure = departure
            self.center = center
            self.radiusMeters = radiusMeters
        }

        public func contains(_ instant: Date) -> Bool {
            instant >= arrival && (departure.map { instant <= $0 } ?? true)
        }
    }

    /// Places a photo taken at `instant`.
    /// - Parameters:
    ///   - before: the last fix at or before `instant`.
    ///   - after: the first fix at or after `instant`.
    ///   - visits: visits to look in (the first that holds `instant` is used).
    /// - Complexity: O(visits), one geodesic inverse and one direct problem.
    public func place(at instant: Date, before: Location?, after: Location?, visits: [Visit] = []) -> PhotoPlacement {
        if let visit = visits.first(where: { $0.contains(instant) }) {
            return .visit(coordinate: visit.center, accuracyMeters: visit.radiusMeters, arrival: visit.arrival, departure: visit.departure)
        }
        guard let before else { return .unplaced(.noFixBefore(nextFixAfterSeconds: after.map { $0.timestamp.timeIntervalSince(instant) })) }
        guard let after else { return .unplaced(.noFixAfter(lastFixBeforeSeconds: instant.timeIntervalSince(before.timestamp))) }
        let gap = after.timestamp.timeIntervalSince(before.timestamp)
        guard gap <= maxGapSeconds else {
            return .unplaced(.gapTooLong(before: before.timestamp, after: after.timestamp, maxGapSeconds: maxGapSeconds))
        }
        let accuracy = max(before.horizontalAccuracyIfValid ?? 0, after.horizontalAccuracyIfValid ?? 0)
        guard gap > 0 else {
            return .interpolated(coordinate: before.coordinate, accuracyMeters: accuracy, before: before.timestamp, after: after.timestamp)
        }
        let fraction = min(1, max(0, instant.timeIntervalSince(before.timestamp) / gap))
        let coordinate = Self.point(from: before.coordinate, to: after.coordinate, fraction: fraction)
        let nearer = min(coordinate.distanceMeters(to: before.coordinate), coordinate.distanceMeters(to: after.coordinate))
        return .interpolated(coordinate: coordinate, accuracyMeters: accuracy + nearer, before: before.timestamp, after: after.timestamp)
    }

    /// The point at `fraction` of the geodesic from `start` to `end` (Karney 2013's inverse for the
    /// azimuth and length, then the direct problem).
    public static func point(from start: Coordinate, to end: Coordinate, fraction: Double) -> Coordinate {
        if fraction == 0 || start == end { return start }
        if fraction == 1 { return end }
        let length = start.distanceMeters(to: end)
        return start.destination(bearingDegrees: start.initialBearingDegrees(to: end), distanceMeters: length * fraction)
    }
}
