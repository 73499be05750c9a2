import Foundation

/// The travel between two visits: from the departure of one to the arrival at the next.
public struct Trip: Hashable, Sendable {
    /// The departure of the visit the trip leaves.
    public let start: Date
    /// The arrival at the next visit.
    public let end: Date
    /// The center of the visit left.
    public let origin: Coordinate
    /// The center of the visit reached.
    public let destination: Coordinate
    /// The distance traveled, metres: the jitter-robust `TraveledDistance` of the fixes between the
    /// two centers, and never less than the geodesic between the centers.
    public let distanceMeters: Double
    /// The mode that won the vote of the trip's minutes.
    public let mode: TransportMode
    /// Minutes voted for each mode (see `TransportModeClassifier`).
    public let minutesByMode: [TransportMode: Double]
    /// How many recorded fixes lie strictly between the departure and the arrival.
    public let locationCount: Int

    /// The time from departure to arrival, seconds.
    public var durationSeconds: Double { end.timeIntervalSince(start) }
}
