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
/// - Complexity: `trip(from:to:locations:activities:)` is O(n) in the locations it is given;
///   `trips(between:locations:activities:)` is O(n + v log n) for n locations and v visits
///   (each trip's fixes are found by binary search).
public struct TripBuilder: Sendable {
    /// The thresholds of the distance.
    public let distanceConfiguration: TraveledDistance.Configuration
    /// The speed bands of the mode vote.
    public let thresholds: TransportModeClassifier.Thresholds

    public init(distanceConfiguration: TraveledDistance.Configuration = TraveledDistance.Configuration(),
                thresholds: TransportModeClassifier.Thresholds = TransportModeClassifier.Thresholds()) {
        self.distanceConfiguration = distanceConfiguration
        self.thresholds = thresholds
    }

    /// The trip from one visit to the next.
    /// - Parameters:
    ///   - origin: the visit left; it must have ended (`departure` not `nil`).
    ///   - destination: the visit reached, arriving no earlier than `origin` departed.
    ///   - locations: fixes in time order; only those strictly between the departure and the
    ///     arrival are used, so a whole day may be passed.
    ///   - activities: the phone's motion reports in time order (each holds until the next).
    /// - Returns: `nil` when the origin has not departed or the destination arrives before it did.
    public func trip<S: Sequence>(from origin: Visit, to destination: Visit, locations: S,
                                  activities: [MotionActivity] = []) -> Trip? where S.Element == Location {
        guard let start = origin.departure, destination.arrival >= start else { return nil }
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
        for location in locations where location.timestamp > start && location.timestamp < end {
            var current: MotionActivity?
            while nextActivity < activities.count, activities[nextActivity].startDate <= location.timestamp {
                current = activities[nextActivity]
                nextActivity += 1
            }
            feed(location, activity: current)
            count += 1
        }
        var current: MotionActivity?
        while nextActivity < activities.count, activities[nextActivity].startDate <= end {
            current = activities[nextActivity]
            nextActivity += 1
        }
        feed(Self.anchor(destination, at: end), activity: current)
        let straightMeters = origin.center.distanceMeters(to: destination.center)
        return Trip(start: start, end: end, origin: origin.center, destination: destination.center,
                    distanceMeters: max(distance.distanceMeters, straightMeters), mode: classifier.mode,
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
