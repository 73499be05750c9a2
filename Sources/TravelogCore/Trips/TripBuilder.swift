import Foundation

/// Builds the trips between consecutive visits from the locations recorded in between.
///
/// A trip runs from the departure of one visit (its last fix there) to the arrival at the next
/// (its first fix there). Its path is the visit's center, the fixes strictly between the two
/// times, and the next visit's center; `TraveledDistance` measures it (movement, not jitter),
/// never less than the geodesic between the centers (a trip with no fixes in between, a gap, is
/// that geodesic), and `TransportModeClassifier` votes its mode over the same path, with the
/// phone's motion reports as hints when given.
///
/// A trip is only claimed over observed movement: there is none across a silence longer than
/// `maximumSilenceSeconds` (a `HistoryGap`, anywhere from the departure to the arrival), none that
/// takes no time, and none between two visits that neither lie apart nor show movement in between.
/// The mode needs evidence: at least `minimumModeFixCount` fixes in between and one fix per
/// `maximumModeFixIntervalSeconds` on average, or a motion report; otherwise it is `.unknown`
/// (a few fixes across hours do not say how someone traveled), unless the straight line between
/// the visits is only possible by air.
///
/// - Complexity: `trip(from:to:locations:activities:)` is O(n) in the locations it is given;
///   `trips(between:locations:activities:)` is O(n + v log n) for n locations and v visits
///   (each trip's fixes are found by binary search).
public struct TripBuilder: Sendable {
    /// The thresholds of the distance.
    public let distanceConfiguration: TraveledDistance.Configuration
    /// The speed bands of the mode vote.
    public let thresholds: TransportModeClassifier.Thresholds
    /// A longer silence between departure and arrival is a gap: no trip, seconds.
    public let maximumSilenceSeconds: Double
    /// A trip's mode is voted only over at least this many fixes between its ends…
    public static let minimumModeFixCount = 3
    /// …and at least one fix per this many seconds on average (else `.unknown`).
    public static let maximumModeFixIntervalSeconds: Double = 600

    public init(distanceConfiguration: TraveledDistance.Configuration = TraveledDistance.Configuration(),
                thresholds: TransportModeClassifier.Thresholds = TransportModeClassifier.Thresholds(),
                maximumSilenceSeconds: Double = HistoryGap.defaultMaximumSilenceSeconds) {
        self.distanceConfiguration = distanceConfiguration
        self.thresholds = thresholds
        self.maximumSilenceSeconds = maximumSilenceSeconds
    }

    /// The trip from one visit to the next.
    /// - Parameters:
    ///   - origin: the visit left; it must have ended (`departure` not `nil`).
    ///   - destination: the visit reached, arriving no earlier than `origin` departed.
    ///   - locations: fixes in time order; only those strictly between the departure and the
    ///     arrival are used, so a whole day may be passed.
    ///   - activities: the phone's motion reports in time order (each holds until the next).
    /// - Returns: `nil` when the origin has not departed, the destination does not arrive after it
    ///   did, a gap lies between them, or nothing moved (the visits overlap in place and no fix
    ///   in between lies outside them).
    public func trip<S: Sequence>(from origin: Visit, to destination: Visit, locations: S,
                                  activities: [MotionActivity] = []) -> Trip? where S.Element == Location {
        guard let start = origin.departure, destination.arrival > start else { return nil }
        let end = destination.arrival
        var distance = TraveledDistance(configuration: distanceConfiguration)
        var classifier = TransportModeClassifier(thresholds: thresholds)
        var nextActivity = activities.partitioningIndex { $0.startDate > start }
        let initialActivity = nextActivity > 0 ? activities[nextActivity - 1] : nil

        func feed(_ location: Location, activity: MotionActivity?) {
            distance.ingest(location)
            classifier.ingest(location, activity: activity)
        }
        feed(Self.anchor(origin, at: start), activity: initialActivity)
        var count = 0
        var previous = start
        var movedAway = false
        var reported = initialActivity?.mode != nil
        let apartMeters = origin.radiusMeters + destination.radiusMeters
        for location in locations where location.timestamp > start && location.timestamp < end {
            guard location.timestamp.timeIntervalSince(previous) <= maximumSilenceSeconds else { return nil }
            previous = location.timestamp
            if !movedAway, origin.center.distanceMeters(to: location.coordinate) > apartMeters { movedAway = true }
            var current: MotionActivity?
            while nextActivity < activities.count, activities[nextActivity].startDate <= location.timestamp {
                current = activities[nextActivity]
                nextActivity += 1
            }
            if current?.mode != nil { reported = true }
            feed(location, activity: current)
            count += 1
        }
        guard end.timeIntervalSince(previous) <= maximumSilenceSeconds else { return nil }
        var current: MotionActivity?
        while nextActivity < activities.count, activities[nextActivity].startDate <= end {
            current = activities[nextActivity]
            nextActivity += 1
        }
        feed(Self.anchor(destination, at: end), activity: current)
        let straightMeters = origin.center.distanceMeters(to: destination.center)
        let meters = max(distance.distanceMeters, straightMeters)
        // Fixes that strayed and came back without measurable movement were jitter, not a trip.
        guard (movedAway || straightMeters > apartMeters), meters > apartMeters else { return nil }
        let durationSeconds = end.timeIntervalSince(start)
        let evidence = reported || (count >= Self.minimumModeFixCount
                                    && Double(count) * Self.maximumModeFixIntervalSeconds >= durationSeconds)
        let voted = classifier.mode
        var mode: TransportMode = evidence && voted != .stationary ? voted : .unknown
        // Without fixes, only a speed no surface transport reaches says how: flying.
        if mode == .unknown, thresholds.mode(forSpeedMetersPerSecond: straightMeters / durationSeconds) == .airborne {
            mode = .airborne
        }
        return Trip(start: start, end: end, origin: origin.center, destination: destination.center,
                    distanceMeters: meters, mode: mode,
                    minutesByMode: classifier.minutesByMode, locationCount: count)
    }

    /// The trips between each pair of consecutive ended visits.
    /// - Parameters:
    ///   - visits: visits in time order (an ongoing last visit still ends the trip that reaches it).
    ///   - locations: the fixes of the whole period, in time order.
    ///   - activities: the phone's motion reports in time order.
    public func trips(between visits: [Visit], locations: [Location], activities: [MotionActivity] = []) -> [Trip] {
        zip(visits, visits.dropFirst()).compactMap { origin, destination in
            guard let start = origin.departure else { return nil }
            let first = locations.partitioningIndex { $0.timestamp > start }
            let last = locations[first...].partitioningIndex { $0.timestamp >= destination.arrival }
            return trip(from: origin, to: destination, locations: locations[first..<last], activities: activities)
        }
    }

    /// A visit's center as a fix at the time the trip leaves or reaches it.
    private static func anchor(_ visit: Visit, at time: Date) -> Location {
        Location(coordinate: visit.center, horizontalAccuracyMeters: max(visit.radiusMeters, 1), timestamp: time)
    }
}
