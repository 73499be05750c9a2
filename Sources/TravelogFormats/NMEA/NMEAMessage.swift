import TravelogCore

/// A decoded sentence of one of the types that say where and when a receiver is.
///
/// Field layouts follow NMEA 0183 v4.11 (with the optional fields of older versions): PROTOCOLS.md
/// "NMEA 0183". Units are SI except where the name says otherwise (`speedKnots`). A position is
/// only decoded from a sentence that reports a fix; a "no fix" sentence keeps its time and date.
public enum NMEAMessage: Hashable, Sendable {
    case gga(GGA)
    case rmc(RMC)
    case gll(GLL)
    case vtg(VTG)
    case gsa(GSA)
    case gst(GST)
    case gns(GNS)
    case zda(ZDA)

    /// Whether a sentence reports a fix.
    public enum FixReport: Hashable, Sendable {
        /// It says there is a fix (GGA quality 1–6, RMC/GLL status `A` with a usable mode…).
        case fix
        /// It says there is none (GGA quality 0, RMC/GLL status `V`, mode `N`, GSA mode 1), or that
        /// the position is not real (manual input, simulator).
        case noFix
    }

    /// A position and how many decimals of minutes the sentence wrote (the lower of lat and lon).
    public struct Position: Hashable, Sendable {
        public var coordinate: Coordinate
        public var minuteDecimals: Int
    }

    /// GGA: time, position, fix quality, satellites, HDOP, altitude above mean sea level and geoid
    /// separation.
    public struct GGA: Hashable, Sendable {
        public var timeOfDay: NMEATimeOfDay?
        /// `nil` without a fix.
        public var position: Position?
        /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 estimated (dead reckoning),
        /// 7 manual input, 8 simulation.
        public var quality: Int?
        public var satellitesUsed: Int?
        public var horizontalDilution: Double?
        /// Altitude above mean sea level (the geoid), metres.
        public var altitudeMSLMeters: Double?
        /// Height of the geoid above the WGS84 ellipsoid, metres.
        public var geoidSeparationMeters: Double?
        public var fixReport: FixReport
    }

    /// RMC: time, status, position, speed over ground, course, date, magnetic variation, mode.
    public struct RMC: Hashable, Sendable {
        public var timeOfDay: NMEATimeOfDay?
        public var position: Position?
        public var speedKnots: Double?
        /// Course over ground, degrees from true north.
        public var courseDegrees: Double?
        /// `nil` when absent or not a date (`2208-1`).
        public var date: CivilDate?
        /// Magnetic variation, degrees, east positive.
        public var magneticVariationDegrees: Double?
        /// FAA mode indicator (NMEA 2.3+): A autonomous, D differential, E estimated, F float RTK,
        /// M manual, N not valid, P precise, R RTK, S simulator.
        public var mode: Unicode.Scalar?
        public var fixReport: FixReport
    }

    /// GLL: position, time, status, mode.
    public struct GLL: Hashable, Sendable {
        public var timeOfDay: NMEATimeOfDay?
        public var position: Position?
        public var mode: Unicode.Scalar?
        public var fixReport: FixReport
    }

    /// VTG: course and speed over ground (no time: it belongs to the epoch it follows).
    public struct VTG: Hashable, Sendable {
        public var courseDegrees: Double?
        public var magneticCourseDegrees: Double?
        public var speedKnots: Double?
        public var speedKilometersPerHour: Double?
        public var mode: Unicode.Scalar?
    }

    /// GSA: fix mode, satellites used and dilutions of precision (no time).
    public struct GSA: Hashable, Sendable {
        /// 1 no fix, 2 2D, 3 3D.
        public var fixMode: Int?
        public var satellites: [Int]
        public var positionDilution: Double?
        public var horizontalDilution: Double?
        public var verticalDilution: Double?
        /// NMEA 4.11 GNSS system id (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC).
        public var systemID: Int?
    }

    /// GST: pseudorange error statistics, 1σ, metres.
    public struct GST: Hashable, Sendable {
        public var timeOfDay: NMEATimeOfDay?
        public var rangeRMSMeters: Double?
        public var semiMajorSigmaMeters: Double?
        public var semiMinorSigmaMeters: Double?
        /// Orientation of the semi-major axis, degrees from true north.
        public var orientationDegrees: Double?
        public var latitudeSigmaMeters: Double?
        public var longitudeSigmaMeters: Double?
        public var altitudeSigmaMeters: Double?
    }

    /// GNS: time, position, one mode character per constellation, satellites, HDOP, altitude, geoid
    /// separation.
    public struct GNS: Hashable, Sendable {
        public var timeOfDay: NMEATimeOfDay?
        public var position: Position?
        public var modes: String
        public var satellitesUsed: Int?
        public var horizontalDilution: Double?
        public var altitudeMSLMeters: Double?
        public var geoidSeparationMeters: Double?
        public var fixReport: FixReport
    }

    /// ZDA: time and full date (and the receiver's local zone, which does not change UTC).
    public struct ZDA: Hashable, Sendable {
        public var timeOfDay: NMEATimeOfDay?
        public var date: CivilDate?
        public var localZoneHours: Int?
        public var localZoneMinutes: Int?
    }

    /// The UTC time of day the sentence is for, when it has one.
    public var timeOfDay: NMEATimeOfDay? {
        switch self {
        case .gga(let gga): gga.timeOfDay
        case .rmc(let rmc): rmc.timeOfDay
        case .gll(let gll): gll.timeOfDay
        case .gst(let gst): gst.timeOfDay
        case .gns(let gns): gns.timeOfDay
        case .zda(let zda): zda.timeOfDay
        case .vtg, .gsa: nil
        }
    }

    /// Whether the sentence reports a fix or its absence (GGA, RMC, GLL, GNS, GSA); `nil` for
    /// sentences that do neither (VTG, GST, ZDA).
    public var fixReport: FixReport? {
        switch self {
        case .gga(let gga): gga.fixReport
        case .rmc(let rmc): rmc.fixReport
        case .gll(let gll): gll.fixReport
        case .gns(let gns): gns.fixReport
        case .gsa(let gsa): gsa.fixMode.map { $0 >= 2 ? .fix : .noFix }
        case .vtg, .gst, .zda: nil
        }
    }
}
