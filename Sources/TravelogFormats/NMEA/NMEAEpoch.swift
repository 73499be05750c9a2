import TravelogCore
/// Everything the sentences of one epoch (one UTC time of day) say about the fix, merged.
///
/// Each value comes from the sentence that states it best: the position from the sentence with the
/// most decimals of minutes (the first on a tie), speed and course from RMC before VTG, HDOP from
/// GGA or GNS before GSA, the date from RMC or ZDA. Built by `NMEAFixAssembler`.
public struct NMEAEpoch: Hashable, Sendable {
    /// The UTC time of day shared by the epoch's sentences; `nil` for the sentences of a receiver
    /// without a fix that writes no time at all (`$GPRMC,,V,…`).
    public internal(set) var timeOfDay: NMEATimeOfDay?
    /// The UTC date an RMC or ZDA of the epoch gave, as written (no rollover correction).
    public internal(set) var date: CivilDate?
    /// The position, when a sentence reporting a fix gave one.
    public internal(set) var position: NMEAMessage.Position?
    /// Whether a GGA, RMC, GLL or GNS is part of the epoch.
    public internal(set) var reportsPosition = false
    /// Whether some GGA, RMC, GLL or GNS of the epoch says there is no fix.
    public internal(set) var reportsNoFix = false
    /// The best GSA fix mode of the epoch (1 no fix, 2 2D, 3 3D); several GSAs (one per GNSS)
    /// agree on a fix when any of them has one.
    public internal(set) var gsaFixMode: Int?
    /// GGA fix quality (see `NMEAMessage.GGA.quality`).
    public internal(set) var fixQuality: Int?
    /// Altitude above mean sea level, metres (GGA or GNS).
    public internal(set) var altitudeMSLMeters: Double?
    /// Geoid height above the WGS84 ellipsoid, metres (GGA or GNS).
    public internal(set) var geoidSeparationMeters: Double?
    public internal(set) var satellitesUsed: Int?
    public internal(set) var positionDilution: Double?
    public internal(set) var verticalDilution: Double?
    /// 1σ errors from GST, metres.
    public internal(set) var latitudeSigmaMeters: Double?
    public internal(set) var longitudeSigmaMeters: Double?
    public internal(set) var altitudeSigmaMeters: Double?
    /// Magnetic variation from RMC, degrees, east positive.
    public internal(set) var magneticVariationDegrees: Double?
    /// Which segment of the track the fix belongs to: a new one starts after the fix was lost.
    public internal(set) var segment = 0

    var fixHorizontalDilution: Double?
    var gsaHorizontalDilution: Double?
    var rmcSpeedMetersPerSecond: Double?
    var vtgSpeedMetersPerSecond: Double?
    var rmcCourseDegrees: Double?
    var vtgCourseDegrees: Double?

    /// An empty epoch at a time of day.
    public init(timeOfDay: NMEATimeOfDay?) {
        self.timeOfDay = timeOfDay
    }

    /// Whether the epoch is a fix to report: a position from a sentence with a fix, and no sentence
    /// of the epoch saying there is none.
    public var isFix: Bool {
        position != nil && !reportsNoFix && (gsaFixMode ?? 3) >= 2
    }

    /// Whether the epoch says the receiver has no fix (so a later fix starts a new segment).
    public var reportsLostFix: Bool {
        !isFix && (reportsPosition || gsaFixMode == 1)
    }

    /// HDOP from GGA or GNS, else from GSA.
    public var horizontalDilution: Double? { fixHorizontalDilution ?? gsaHorizontalDilution }
    /// Speed over ground from RMC, else VTG, m/s.
    public var speedMetersPerSecond: Double? { rmcSpeedMetersPerSecond ?? vtgSpeedMetersPerSecond }
    /// Course over ground from RMC, else VTG, degrees from true north in [0, 360).
    public var courseDegrees: Double? {
        guard let course = rmcCourseDegrees ?? vtgCourseDegrees, course.isFinite else { return nil }
        let wrapped = course.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }
}
