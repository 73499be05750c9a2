/// The settings of a location manager. The defaults are Core Location's, so that with none set
/// every fix is delivered: best accuracy, no distance filter.
public struct LocationManagerConfiguration: Hashable, Sendable, Codable {
    /// How accurate fixes must be; worse ones are held back (`AccuracyGate`).
    public var desiredAccuracy: DesiredAccuracy = .best
    /// The distance the device must move from the last delivered fix before the next one is
    /// delivered, in metres; `nil` is `kCLDistanceFilterNone`.
    public var distanceFilterMeters: Double? = nil
    /// What the device is used for (tunes auto-pause).
    public var activityType: ActivityType = .other
    /// Whether updates pause when the device stops moving. Core Location's default is `true`;
    /// Travelog's is `false`, so that a tracker with no options keeps every fix.
    public var pausesLocationUpdatesAutomatically: Bool = false
    /// How long a fix worse than the desired accuracy is held back waiting for a better one, in
    /// seconds; when none comes the best held fix is delivered.
    public var accuracyHoldSeconds: Double = 30
    /// Stop updating when fixes have missed the desired accuracy and their accuracy has not
    /// improved for this long, in seconds; `nil` never stops.
    public var stopWhenAccuracyStallsSeconds: Double? = nil
    /// The smallest change of heading that is reported, in degrees; `nil` reports every change
    /// (`kCLHeadingFilterNone`). Core Location's default is 1°.
    public var headingFilterDegrees: Double? = 1

    public init() {}
}
