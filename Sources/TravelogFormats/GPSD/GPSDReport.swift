import Foundation
import TravelogCore

/// One report of gpsd's JSON protocol (gpsd_json(5)), the classes Travelog uses: `TPV` (a fix),
/// `SKY` (satellites and dilutions), `ATT` (attitude: heading). Every other class (VERSION,
/// DEVICES, WATCH, GST, AIS, …) is `.other` with its name.
///
/// gpsd writes no nulls: a missing member is unknown. Units: degrees, metres, metres per second;
/// `time` is ISO 8601 UTC. Source: gpsd's `man/gpsd_json.adoc`.
public enum GPSDReport: Hashable, Sendable {
    case tpv(TPV)
    case sky(SKY)
    case att(ATT)
    case other(className: String)

    /// A time-position-velocity report.
    public struct TPV: Hashable, Sendable {
        /// 0 unknown, 1 no fix, 2 2D, 3 3D.
        public var mode: Int = 0
        /// 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead reckoning, 8 simulated; nil when not sent.
        public var status: Int?
        public var time: Date?
        public var latitudeDegrees: Double?
        public var longitudeDegrees: Double?
        /// Height above mean sea level, metres (`altMSL`, or the older `alt`).
        public var altitudeMSLMeters: Double?
        /// Degrees from true north (`track`) and from magnetic north (`magtrack`).
        public var trackDegrees: Double?
        public var magneticTrackDegrees: Double?
        /// Speed over ground, m/s.
        public var speedMetersPerSecond: Double?
        /// Error estimates, metres (`eph` horizontal, `epx` longitude, `epy` latitude, `epv`
        /// vertical), m/s (`eps`), degrees (`epd`, of the track).
        public var horizontalErrorMeters: Double?
        public var longitudeErrorMeters: Double?
        public var latitudeErrorMeters: Double?
        public var verticalErrorMeters: Double?
        public var speedErrorMetersPerSecond: Double?
        public var trackErrorDegrees: Double?

        public init() {}
    }

    /// A sky view: the dilutions of precision and how many satellites are seen and used.
    public struct SKY: Hashable, Sendable {
        public var horizontalDilution: Double?
        public var positionDilution: Double?
        public var satellitesSeen: Int?
        public var satellitesUsed: Int?
        public init() {}
    }

    /// An attitude report: `heading` (degrees from true north) and `mheading` (from magnetic north).
    public struct ATT: Hashable, Sendable {
        public var time: Date?
        public var trueHeadingDegrees: Double?
        public var magneticHeadingDegrees: Double?
        public init() {}
    }

    /// The class name gpsd gives the report.
    public var className: String {
        switch self {
        case .tpv: "TPV"
        case .sky: "SKY"
        case .att: "ATT"
        case .other(let name): name
        }
    }
}

extension GPSDReport.TPV {
    /// The fix as a `Location`: only for a 2D or 3D fix with a time and a position. The
    /// horizontal accuracy is `eph`, else the larger of `epx` and `epy`; a 2D fix has no altitude.
    public var location: Location? {
        guard mode >= 2, let time, let latitudeDegrees, let longitudeDegrees,
              let coordinate = Coordinate(validLatitude: latitudeDegrees, longitude: longitudeDegrees) else { return nil }
        let horizontal = horizontalErrorMeters ?? [longitudeErrorMeters, latitudeErrorMeters].compactMap { $0 }.max()
        return Location(coordinate: coordinate,
                        altitudeMeters: mode >= 3 ? altitudeMSLMeters : nil,
                        horizontalAccuracyMeters: horizontal ?? -1,
                        verticalAccuracyMeters: mode >= 3 ? (verticalErrorMeters ?? -1) : -1,
                        speedMetersPerSecond: speedMetersPerSecond ?? -1,
                        speedAccuracyMetersPerSecond: speedErrorMetersPerSecond ?? -1,
                        courseDegrees: trackDegrees ?? -1,
                        courseAccuracyDegrees: trackErrorDegrees ?? -1,
                        timestamp: time)
    }
}
