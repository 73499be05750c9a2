import Foundation

/// A silence in a device's history longer than the bound the journal trusts: the device recorded
/// nothing between `start` and `end`, so nothing is claimed about that time. It is not a stay, not a
/// trip and not distance traveled; where the device was elsewhere afterwards, the move is
/// *unrecorded movement*, reported beside the distance as a straight line.
///
/// Phones stop reporting while they lie still (iOS and Android's Doze pause location updates), so
/// silences of hours at one place are normal and continue a stay: the longest in the shared
/// fixtures is Reitti's overnight visit, silent for 10.8 h. A silence of days or weeks (a phone
/// switched off, an app uninstalled, an export that skips a year) is a gap. The default bound,
/// `defaultMaximumSilenceSeconds` (18 h), leaves a night and a slow morning at home inside a stay
/// and cuts everything longer.
public struct HistoryGap: Hashable, Sendable {
    /// The longest silence that still continues a stay or a measured path, seconds (18 h).
    public static let defaultMaximumSilenceSeconds: Double = 18 * 3600

    /// The time of the last fix before the silence.
    public let start: Date
    /// The time of the first fix after it.
    public let end: Date
    /// Where the device was before the silence.
    public let origin: Coordinate
    /// Where it was after.
    public let destination: Coordinate

    public init(start: Date, end: Date, origin: Coordinate, destination: Coordinate) {
        self.start = start
        self.end = end
        self.origin = origin
        self.destination = destination
    }

    /// The gap between two consecutive fixes of one device, if the silence between them is longer
    /// than `maximumSilenceSeconds`.
    public init?(between before: Location, and after: Location,
                 maximumSilenceSeconds: Double = HistoryGap.defaultMaximumSilenceSeconds) {
        guard after.timestamp.timeIntervalSince(before.timestamp) > maximumSilenceSeconds else { return nil }
        self.init(start: before.timestamp, end: after.timestamp, origin: before.coordinate, destination: after.coordinate)
    }

    /// The length of the silence, seconds.
    public var durationSeconds: Double { end.timeIntervalSince(start) }

    /// The geodesic from where the device was before to where it was after, metres.
    public var straightLineMeters: Double { origin.distanceMeters(to: destination) }

    /// Whether the device was somewhere else after the silence: the straight line is longer than
    /// `UnrecordedMovement.minimumMeters`.
    public var isMovement: Bool { straightLineMeters > UnrecordedMovement.minimumMeters }
}
