import Foundation
import TravelogCore

extension NMEAEpoch {
    /// The user-equivalent range error used to turn a DOP into an accuracy when the receiver sends
    /// no GST: 5 m, 1σ, the order of the single-frequency GPS error budgets in Kaplan & Hegarty,
    /// *Understanding GPS* (ch. 7). Horizontal accuracy ≈ HDOP × UERE, vertical ≈ VDOP × UERE.
    /// It overstates the error of DGPS and RTK fixes, which usually send GST.
    public static let typicalUserEquivalentRangeErrorMeters: Double = 5

    /// Days from 1970-01-01 to 2001-01-01, the reference date of `Date`.
    static let daysFrom1970To2001 = 11_323

    /// The instant of this epoch on `date`; `nil` for an epoch without a time of day.
    public func timestamp(on date: CivilDate) -> Date? {
        guard let timeOfDay else { return nil }
        let days = date.daysSince1970 - Self.daysFrom1970To2001
        return Date(timeIntervalSinceReferenceDate: Double(days) * 86_400 + timeOfDay.secondsSinceMidnight)
    }

    /// Radius of uncertainty of the position, metres: from GST's 1σ latitude and longitude errors
    /// (their root sum square, the distance RMS), else HDOP × `userEquivalentRangeErrorMeters`;
    /// `nil` when neither is known.
    public func horizontalAccuracyMeters(userEquivalentRangeErrorMeters: Double) -> Double? {
        if let latitudeSigmaMeters, let longitudeSigmaMeters, latitudeSigmaMeters >= 0, longitudeSigmaMeters >= 0 {
            return (latitudeSigmaMeters * latitudeSigmaMeters + longitudeSigmaMeters * longitudeSigmaMeters).squareRoot()
        }
        return horizontalDilution.map { $0 * userEquivalentRangeErrorMeters }
    }

    /// Uncertainty of the altitude, metres: GST's 1σ altitude error, else VDOP ×
    /// `userEquivalentRangeErrorMeters`; `nil` without an altitude, for a 2D fix (its altitude is
    /// assumed, not measured) or when neither is known.
    public func verticalAccuracyMeters(userEquivalentRangeErrorMeters: Double) -> Double? {
        guard altitudeMSLMeters != nil, gsaFixMode != 2 else { return nil }
        if let altitudeSigmaMeters, altitudeSigmaMeters >= 0 { return altitudeSigmaMeters }
        return verticalDilution.map { $0 * userEquivalentRangeErrorMeters }
    }

    /// The fix as a `Location` on `date`; `nil` when the epoch is not a fix or has no time.
    public func location(on date: CivilDate,
                         userEquivalentRangeErrorMeters: Double = typicalUserEquivalentRangeErrorMeters) -> Location? {
        guard isFix, let position, let timestamp = timestamp(on: date) else { return nil }
        return Location(
            coordinate: position.coordinate,
            altitudeMeters: altitudeMSLMeters,
            horizontalAccuracyMeters: horizontalAccuracyMeters(userEquivalentRangeErrorMeters: userEquivalentRangeErrorMeters) ?? -1,
            verticalAccuracyMeters: verticalAccuracyMeters(userEquivalentRangeErrorMeters: userEquivalentRangeErrorMeters) ?? -1,
            speedMetersPerSecond: speedMetersPerSecond ?? -1,
            courseDegrees: courseDegrees ?? -1,
            timestamp: timestamp)
    }
}
