import Foundation
import TravelogCore

/// Turns compass and receiver readings into `Heading`s with Core Location's heading filter.
///
/// A true heading (NMEA HDT or THS, gpsd ATT `heading`) is taken as it is. A magnetic heading
/// (NMEA HDG, a sensor) becomes a true heading by adding the declination of the World Magnetic
/// Model at the last known location and the reading's date; without a location (or outside the
/// model's validity) its true heading is -1, as `CLHeading.trueHeading` is. A heading is reported
/// only when it differs from the last reported one by at least the filter.
/// - Complexity: O(1) per reading (one model evaluation for a magnetic reading).
public struct HeadingProcessor: Sendable {
    /// A reading.
    public enum Input: Hashable, Sendable {
        /// Degrees from true north, with an accuracy in degrees when known.
        case trueHeading(degrees: Double, accuracyDegrees: Double?, at: Date)
        /// Degrees from magnetic north, with an accuracy in degrees when known.
        case magneticHeading(degrees: Double, accuracyDegrees: Double?, at: Date)
        /// A fix: where the device is (for the declination).
        case location(Location)
    }

    public let filterDegrees: Double?
    private let model: WorldMagneticModel?
    private var lastLocation: Location?
    private var lastReported: Heading?

    /// - Parameters:
    ///   - filterDegrees: the heading filter, in degrees (`nil` reports every reading).
    ///   - model: the magnetic model for magnetic readings (`nil`: their true heading is -1).
    public init(filterDegrees: Double?, model: WorldMagneticModel?) {
        self.filterDegrees = filterDegrees
        self.model = model
    }

    /// - Returns: the heading to report, if this reading passes the filter.
    public mutating func ingest(_ input: Input) -> Heading? {
        let heading: Heading
        switch input {
        case .location(let location):
            lastLocation = location
            return nil
        case .trueHeading(let degrees, let accuracy, let date):
            heading = Heading(trueHeadingDegrees: Heading.normalizedDegrees(degrees),
                              headingAccuracyDegrees: accuracy ?? -1, timestamp: date)
        case .magneticHeading(let degrees, let accuracy, let date):
            let magnetic = Heading.normalizedDegrees(degrees)
            let declination = declinationDegrees(at: date)
            heading = Heading(magneticHeadingDegrees: magnetic,
                              trueHeadingDegrees: declination.map { Heading.normalizedDegrees(magnetic + $0) } ?? -1,
                              headingAccuracyDegrees: accuracy ?? -1, timestamp: date)
        }
        if let filter = filterDegrees, let last = lastReported,
           Heading.separationDegrees(last.comparableDegrees, heading.comparableDegrees) < filter {
            return nil
        }
        lastReported = heading
        return heading
    }

    /// The declination at the last known location, in degrees east; `nil` when unknown.
    public func declinationDegrees(at date: Date) -> Double? {
        guard let model, let location = lastLocation else { return nil }
        return try? model.declinationDegrees(latitudeDegrees: location.coordinate.latitude,
                                             longitudeDegrees: location.coordinate.longitude,
                                             heightMeters: location.altitudeMeters ?? 0,
                                             decimalYear: DecimalYear.of(date))
    }
}
