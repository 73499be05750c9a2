import Foundation
import TravelogCore

/// A seeded history as real ones are: days at home and at work with walks and drives between,
/// nights with the phone silent for hours, flights with the phone off, and weeks with no data at
/// all, across several cities on several continents. Everything follows from the seed.
public struct GappyHistory: Sendable {
    /// One silence longer than `HistoryGap.defaultMaximumSilenceSeconds` the history contains.
    public struct PlannedGap: Hashable, Sendable {
        /// The last fix before it and the first after.
        public var before: Location
        public var after: Location
    }

    /// The fixes in time order.
    public private(set) var locations: [Location] = []
    /// The silences longer than the default bound, in time order.
    public private(set) var gaps: [PlannedGap] = []

    /// Cities the history moves between (Luxembourg, Chicago, Cupertino, Tokyo, Sydney, Berlin).
    public static let cities: [Coordinate] = [
        (49.60688, 6.15788), (42.06288, -88.23412), (37.3318, -122.030581), (35.68, 139.76), (-33.87, 151.21), (52.52, 13.405),
    ].map { Coordinate(validLatitude: $0.0, longitude: $0.1)! }

    private var generator: SplitMix64
    private var time: Double
    private var home: Coordinate
    private var position: Coordinate
    private let intervalSeconds: Double

    /// Generates `days` days from `start` (seconds since 1970), a fix every `intervalSeconds` while
    /// the phone reports.
    public init(seed: UInt64, days: Int, start: Double = 1_700_000_000, intervalSeconds: Double = 60) {
        generator = SplitMix64(seed: seed)
        time = start
        self.intervalSeconds = intervalSeconds
        home = Self.cities[Int(generator.next() % UInt64(Self.cities.count))]
        position = home
        let end = start + Double(days) * 86_400
        while time < end { day() }
    }

    private mutating func day() {
        let roll = generator.nextUnit()
        if roll < 0.04 {
            // The phone is off (or the app was) for one to five weeks; sometimes the person moved.
            let moved = generator.nextUnit() < 0.5
            silence(seconds: Double(7 + Int(generator.next() % 28)) * 86_400,
                    to: moved ? Self.cities[Int(generator.next() % UInt64(Self.cities.count))] : position)
            if moved { home = position }
            return
        }
        if roll < 0.10 {
            // A flight with the phone off to another city, then the day there.
            let destination = Self.cities[Int(generator.next() % UInt64(Self.cities.count))]
            silence(seconds: (4 + 10 * generator.nextUnit()) * 3600, to: destination)
            home = destination
        }
        // Morning at home, commute, work, commute back, evening; the night is silent (8–12 h).
        let work = home.destination(bearingDegrees: 360 * generator.nextUnit(), distanceMeters: 1_000 + 15_000 * generator.nextUnit())
        stay(seconds: 1800 + 3600 * generator.nextUnit())
        move(to: work, speedMetersPerSecond: generator.nextUnit() < 0.3 ? 1.4 : 12)
        stay(seconds: 4 * 3600 + 4 * 3600 * generator.nextUnit())
        move(to: home, speedMetersPerSecond: generator.nextUnit() < 0.3 ? 1.4 : 12)
        stay(seconds: 3600 * (1 + 3 * generator.nextUnit()))
        silence(seconds: (8 + 4 * generator.nextUnit()) * 3600, to: position)
    }

    private mutating func fix(at coordinate: Coordinate, accuracyMeters: Double) {
        let noisy = coordinate.destination(bearingDegrees: 360 * generator.nextUnit(),
                                           distanceMeters: abs(generator.gaussian()) * accuracyMeters / 2)
        locations.append(Location(coordinate: noisy, horizontalAccuracyMeters: accuracyMeters,
                                  timestamp: Date(timeIntervalSince1970: time.rounded())))
        time += intervalSeconds
    }

    private mutating func stay(seconds: Double) {
        let accuracy = 5 + 25 * generator.nextUnit()
        for _ in 0..<max(1, Int(seconds / intervalSeconds)) { fix(at: position, accuracyMeters: accuracy) }
    }

    private mutating func move(to destination: Coordinate, speedMetersPerSecond speed: Double) {
        let meters = position.distanceMeters(to: destination)
        let steps = max(1, Int(meters / (speed * intervalSeconds)))
        let origin = position
        for step in 1...steps {
            let fraction = Double(step) / Double(steps)
            position = fraction == 1 ? destination : Coordinate(
                validLatitude: origin.latitude + fraction * (destination.latitude - origin.latitude),
                longitude: origin.longitude + fraction * (destination.longitude - origin.longitude)) ?? destination
            fix(at: position, accuracyMeters: 8)
        }
    }

    /// No fixes for `seconds`, after which the device is at `destination`.
    private mutating func silence(seconds: Double, to destination: Coordinate) {
        let before = locations.last
        time += seconds
        position = destination
        fix(at: position, accuracyMeters: 10)
        if let before, let after = locations.last,
           after.timestamp.timeIntervalSince(before.timestamp) > HistoryGap.defaultMaximumSilenceSeconds {
            gaps.append(PlannedGap(before: before, after: after))
        }
    }
}
