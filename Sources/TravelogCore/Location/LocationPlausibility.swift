import Foundation

/// The limits a location must keep to be stored: values that no device can report are refused
/// with the field and the value, so nothing absurd is ever stored (and nothing that a later
/// conversion could trap on, such as an accuracy of 1e20 metres turned into an integer).
///
/// Core Location's conventions apply first: a negative (or zero) accuracy means "invalid", a
/// negative speed or course "unknown"; those are normalised to -1, not refused.
public struct LocationPlausibility: Sendable, Hashable {
    /// The lowest and highest altitude a fix may have, metres (the Dead Sea shore is at -430 m;
    /// balloons and aircraft stay far below 100 km).
    public var altitudeRangeMeters: ClosedRange<Double> = -500...100_000
    /// The largest accuracy (horizontal or vertical) that still says something, metres: half the
    /// Earth's circumference. Larger values are not uncertainty but garbage.
    public var maximumAccuracyMeters: Double = 20_000_000
    /// The fastest a device may move, m/s (well above any aircraft, below orbital speed).
    public var maximumSpeedMetersPerSecond: Double = 2_000
    /// The earliest time accepted (history before consumer GPS is almost always a clock reset).
    public var earliest: Date = LocationPlausibility.defaultEarliest
    /// How far in the future of "now" a fix may be dated, seconds (a phone's clock a little ahead).
    public var futureToleranceSeconds: TimeInterval = 86_400

    /// 1990-01-01T00:00:00Z.
    public static let defaultEarliest = Date(timeIntervalSince1970: 631_152_000)

    public init() {}

    /// Limits with another earliest time (imports of old history).
    public init(earliest: Date) {
        self.earliest = earliest
    }

    /// Checks a location against the limits at `now`.
    /// - Returns: the location with invalid markers normalised (accuracy ≤ 0 → -1, negative
    ///   speed/course → -1, a course of exactly 360° → 0).
    /// - Throws: `ImplausibleLocation` naming the first value that cannot be.
    public func checked(_ location: Location, now: Date = Date()) throws(ImplausibleLocation) -> Location {
        var result = location
        let time = location.timestamp.timeIntervalSince1970
        guard time.isFinite, location.timestamp >= earliest else {
            throw .timeTooEarly(location.timestamp, earliest: earliest)
        }
        guard location.timestamp.timeIntervalSince(now) <= futureToleranceSeconds else {
            throw .timeInFuture(location.timestamp, now: now)
        }
        if let altitude = location.altitudeMeters, !altitudeRangeMeters.contains(altitude) {
            throw .outOfRange(field: .altitude, value: altitude, range: altitudeRangeMeters)
        }
        result.horizontalAccuracyMeters = try accuracy(location.horizontalAccuracyMeters, .horizontalAccuracy)
        result.verticalAccuracyMeters = try accuracy(location.verticalAccuracyMeters, .verticalAccuracy)
        if location.speedMetersPerSecond < 0 {
            result.speedMetersPerSecond = -1
        } else if location.speedMetersPerSecond > maximumSpeedMetersPerSecond {
            throw .outOfRange(field: .speed, value: location.speedMetersPerSecond, range: 0...maximumSpeedMetersPerSecond)
        }
        if location.speedAccuracyMetersPerSecond <= 0 {
            result.speedAccuracyMetersPerSecond = -1
        } else if location.speedAccuracyMetersPerSecond > maximumSpeedMetersPerSecond {
            throw .outOfRange(field: .speedAccuracy, value: location.speedAccuracyMetersPerSecond,
                              range: 0...maximumSpeedMetersPerSecond)
        }
        if location.courseDegrees < 0 {
            result.courseDegrees = -1
        } else if location.courseDegrees == 360 {
            result.courseDegrees = 0
        } else if location.courseDegrees > 360 {
            throw .outOfRange(field: .course, value: location.courseDegrees, range: 0...360)
        }
        if location.courseAccuracyDegrees <= 0 {
            result.courseAccuracyDegrees = -1
        } else if location.courseAccuracyDegrees > 360 {
            throw .outOfRange(field: .courseAccuracy, value: location.courseAccuracyDegrees, range: 0...360)
        }
        if let offset = location.utcOffsetSeconds, abs(offset) > 18 * 3600 {
            throw .outOfRange(field: .utcOffset, value: Double(offset), range: -64_800...64_800)
        }
        return result
    }

    /// The location with every value `checked(_:now:)` would refuse turned into "unknown" (the time
    /// is kept): for values stored before they were checked, so that nothing read back can make a
    /// conversion trap or an answer invalid.
    public func sanitized(_ location: Location) -> Location {
        var result = location
        if let altitude = location.altitudeMeters, !altitudeRangeMeters.contains(altitude) { result.altitudeMeters = nil }
        if !(location.horizontalAccuracyMeters > 0 && location.horizontalAccuracyMeters <= maximumAccuracyMeters) {
            result.horizontalAccuracyMeters = -1
        }
        if !(location.verticalAccuracyMeters > 0 && location.verticalAccuracyMeters <= maximumAccuracyMeters) {
            result.verticalAccuracyMeters = -1
        }
        if !(location.speedMetersPerSecond >= 0 && location.speedMetersPerSecond <= maximumSpeedMetersPerSecond) {
            result.speedMetersPerSecond = -1
        }
        if !(location.speedAccuracyMetersPerSecond > 0 && location.speedAccuracyMetersPerSecond <= maximumSpeedMetersPerSecond) {
            result.speedAccuracyMetersPerSecond = -1
        }
        if !(location.courseDegrees >= 0 && location.courseDegrees < 360) { result.courseDegrees = location.courseDegrees == 360 ? 0 : -1 }
        if !(location.courseAccuracyDegrees > 0 && location.courseAccuracyDegrees <= 360) { result.courseAccuracyDegrees = -1 }
        if let offset = location.utcOffsetSeconds, abs(offset) > 18 * 3600 { result.utcOffsetSeconds = nil }
        return result
    }

    private func accuracy(_ value: Double, _ field: ImplausibleLocation.Field) throws(ImplausibleLocation) -> Double {
        if value <= 0 { return -1 }
        guard value <= maximumAccuracyMeters else {
            throw .outOfRange(field: field, value: value, range: 0...maximumAccuracyMeters)
        }
        return value
    }
}

/// Why a location cannot be stored.
public enum ImplausibleLocation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value a location field names.
    public enum Field: String, Hashable, Sendable {
        case altitude, horizontalAccuracy, verticalAccuracy, speed, speedAccuracy, course, courseAccuracy, utcOffset
    }

    /// A value outside what a device can report (the range says what is accepted).
    case outOfRange(field: Field, value: Double, range: ClosedRange<Double>)
    /// Dated before the earliest time accepted.
    case timeTooEarly(Date, earliest: Date)
    /// Dated further in the future than the clock tolerance allows.
    case timeInFuture(Date, now: Date)

    public var description: String {
        switch self {
        case .outOfRange(let field, let value, let range):
            "\(field.rawValue) \(value) is outside \(range.lowerBound)…\(range.upperBound)"
        case .timeTooEarly(let date, let earliest):
            "time \(Self.iso(date)) is before \(Self.iso(earliest)) (importing older history: --earliest)"
        case .timeInFuture(let date, let now):
            "time \(Self.iso(date)) is more than a day after now (\(Self.iso(now)))"
        }
    }

    private static func iso(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e13 else { return "\(seconds) s since 1970" }
        let day = CivilDate(secondsSince1970: seconds, utcOffsetSeconds: 0)
        let secondOfDay = Int((seconds - Double(day.daysSince1970) * 86_400).rounded(.down))
        return "\(day)T" + [secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60]
            .map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":") + "Z"
    }
}
