import Foundation

/// A stay at one place: when the device arrived, when it left, where, and how wide the place is.
///
/// Follows Core Location's `CLVisit`: a visit is reported once when the stay is established
/// (`departure` is `nil`, still going on) and again when it ends (with its departure). `==` is
/// exact: two visits are equal only when every value is.
public struct Visit: Hashable, Sendable {
    /// The time of the first fix at the place.
    public let arrival: Date
    /// The time of the last fix at the place, or `nil` while the visit is still going on.
    public let departure: Date?
    /// The accuracy-weighted mean of the fixes at the place.
    public let center: Coordinate
    /// How far from `center` the fixes of the visit typically lie, metres: the root of the
    /// weighted mean squared distance from the center plus the mean's own squared uncertainty
    /// (`CLVisit.horizontalAccuracy`'s role).
    public let radiusMeters: Double
    /// How many fixes the visit was built from (its weight when merged with another).
    public let locationCount: Int

    /// Creates a visit, checking its invariants.
    /// - Throws: `VisitError` when the departure precedes the arrival, the radius is negative or
    ///   not finite, or the location count is below 1.
    public init(arrival: Date, departure: Date?, center: Coordinate, radiusMeters: Double, locationCount: Int) throws(VisitError) {
        if let departure, departure < arrival { throw .departureBeforeArrival(arrival: arrival, departure: departure) }
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        guard locationCount >= 1 else { throw .invalidLocationCount(locationCount) }
        self.init(unchecked: arrival, departure: departure, center: center, radiusMeters: radiusMeters, locationCount: locationCount)
    }

    /// For values the detector and the merger derive from checked ones.
    init(unchecked arrival: Date, departure: Date?, center: Coordinate, radiusMeters: Double, locationCount: Int) {
        self.arrival = arrival
        self.departure = departure
        self.center = center
        self.radiusMeters = radiusMeters
        self.locationCount = locationCount
    }

    /// The length of the stay in seconds, `nil` while it is still going on.
    public var durationSeconds: Double? { departure.map { $0.timeIntervalSince(arrival) } }
}

/// What the visit detector reports, in time order.
public enum VisitEvent: Hashable, Sendable {
    /// A stay has lasted the minimum duration: the visit's `departure` is `nil`.
    case arrived(Visit)
    /// The stay is over: the visit with its departure (its center and radius now count every fix).
    case departed(Visit)

    /// The visit the event is about.
    public var visit: Visit {
        switch self {
        case .arrived(let visit), .departed(let visit): visit
        }
    }
}

/// Why a visit could not be constructed.
public enum VisitError: Error, Hashable, Sendable, CustomStringConvertible {
    case departureBeforeArrival(arrival: Date, departure: Date)
    case invalidRadius(Double)
    case invalidLocationCount(Int)

    public var description: String {
        switch self {
        case .departureBeforeArrival(let arrival, let departure): "departure \(departure) is before arrival \(arrival)"
        case .invalidRadius(let radius): "radius \(radius) m is not a finite non-negative distance"
        case .invalidLocationCount(let count): "a visit needs at least one location, not \(count)"
        }
    }
}
