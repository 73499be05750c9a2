import TravelogCore

/// Which column of a CSV header holds what, found by name.
///
/// Names are compared case-insensitively with everything but ASCII letters and digits removed,
/// so `Start Time`, `start_time` and `startTime` are one name, and `speed (km/h)` reads as
/// `speedkmh`. When several columns name the same thing, the earlier alias in each list wins.
public struct CSVColumnMap: Hashable, Sendable {
    /// The unit a column's numbers are written in.
    public enum Unit: Hashable, Sendable {
        case degrees
        /// Degrees × 10^7 as integers (Google's `latitudeE7`).
        case degreesE7
        case meters
        case feet
        case metersPerSecond
        case kilometersPerHour
        case knots
        case milesPerHour

        /// `value` in Travelog's unit: degrees, metres or metres per second.
        public func converted(_ value: Double) -> Double {
            switch self {
            case .degrees, .meters, .metersPerSecond: value
            // Dividing keeps E7 exact: 525200000 / 1e7 is the double nearest 52.52.
            case .degreesE7: value / 1e7
            case .feet: Units.meters(feet: value)
            case .kilometersPerHour: Units.metersPerSecond(kilometersPerHour: value)
            case .knots: Units.metersPerSecond(knots: value)
            case .milesPerHour: Units.metersPerSecond(milesPerHour: value)
            }
        }
    }

    /// A column and the unit of its numbers.
    public struct ScaledColumn: Hashable, Sendable {
        public var index: Int
        public var unit: Unit

        public init(index: Int, unit: Unit) {
            self.index = index
            self.unit = unit
        }
    }

    /// The header's names as written.
    public let names: [String]
    /// Latitude (degrees, or E7 integers divided by 1e7).
    public private(set) var latitude: ScaledColumn?
    /// Longitude (degrees, or E7 integers divided by 1e7).
    public private(set) var longitude: ScaledColumn?
    /// A WKT `POINT (lon lat)` column, used when there are no latitude and longitude columns.
    public private(set) var geometry: Int?
    /// Columns that may hold the time, best first; a row takes the first that is not empty.
    public private(set) var times: [Int] = []
    /// A date column for rows whose time column holds only the time of day.
    public private(set) var date: Int?
    /// The end of a stay or an activity (Google Timeline CSV `End Time`).
    public private(set) var endTime: Int?
    /// Altitude, converted into metres.
    public private(set) var altitude: ScaledColumn?
    /// Horizontal accuracy in metres.
    public private(set) var horizontalAccuracy: Int?
    /// Vertical accuracy in metres.
    public private(set) var verticalAccuracy: Int?
    /// Course in degrees clockwise from true north.
    public private(set) var course: Int?
    /// Speed, converted into metres per second.
    public private(set) var speed: ScaledColumn?
    /// Google Timeline CSV `Type`: rows whose type is `Visit` are visits.
    public private(set) var type: Int?
    /// A name for the point or the visited place (`name`, GPSLogger's `annotation`).
    public private(set) var name: Int?
    /// The visited place's address.
    public private(set) var address: Int?
    /// The source's identifier of the visited place (Google's `PlaceId`).
    public private(set) var placeIdentifier: Int?

    /// The header's names reduced for comparison: ASCII letters (lowercased) and digits only.
    public static func normalized(_ name: String) -> String {
        var kept: [UInt8] = []
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept.append(byte | 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept.append(byte)
            default: break
            }
        }
        return String(decoding: kept, as: UTF8.self)
    }

    // Aliases, best first, with the unit they are written in.
    static let latitudeAliases: [(String, Unit)] = [
        ("lat", .degrees), ("latitude", .degrees), ("latitudedeg", .degrees), ("latitudedegrees", .degrees),
        ("latitudee7", .degreesE7), ("late7", .degreesE7),
    ]
    static let longitudeAliases: [(String, Unit)] = [
        ("lon", .degrees), ("lng", .degrees), ("long", .degrees), ("longitude", .degrees),
        ("longitudedeg", .degrees), ("longitudedegrees", .degrees),
        ("longitudee7", .degreesE7), ("lone7", .degreesE7), ("lnge7", .degreesE7),
    ]
    static let geometryAliases = ["geom", "geometry", "wkt", "thegeom"]
    /// GPSLogger writes `time` in UTC and `time_offset` with the phone's offset: the latter first.
    static let timeAliases = ["timeoffset", "time", "timestamp", "datetime", "timeutc", "utctime", "isotst", "tst",
                              "trackedat", "recordedat", "fixtime", "timestampms", "starttime", "date"]
    static let dateAliases = ["date", "utcdate"]
    static let endTimeAliases = ["endtime"]
    static let altitudeAliases: [(String, Unit)] = [
        ("elevation", .meters), ("altitude", .meters), ("alt", .meters), ("ele", .meters), ("height", .meters),
        ("elevationm", .meters), ("altitudem", .meters), ("elevationmeters", .meters), ("altitudemeters", .meters),
        ("elevationft", .feet), ("altitudeft", .feet), ("eleft", .feet), ("elevationfeet", .feet), ("altitudefeet", .feet),
    ]
    static let horizontalAccuracyAliases = ["accuracy", "acc", "horizontalaccuracy", "hacc", "accuracym",
                                            "accuracymeters", "horizontalaccuracymeters"]
    static let verticalAccuracyAliases = ["verticalaccuracy", "vacc", "vac", "verticalaccuracymeters"]
    static let courseAliases = ["bearing", "course", "heading", "cog", "direction", "dir"]
    /// `velocity` is Google Records' name for m/s; `vel` is OwnTracks' km/h.
    static let speedAliases: [(String, Unit)] = [
        ("speed", .metersPerSecond), ("speedms", .metersPerSecond), ("speedmps", .metersPerSecond),
        ("velocity", .metersPerSecond), ("spd", .metersPerSecond),
        ("speedkmh", .kilometersPerHour), ("speedkph", .kilometersPerHour), ("kmh", .kilometersPerHour),
        ("kph", .kilometersPerHour), ("vel", .kilometersPerHour),
        ("speedknots", .knots), ("speedkn", .knots), ("speedkt", .knots), ("knots", .knots),
        ("speedmph", .milesPerHour), ("mph", .milesPerHour),
    ]

    /// Maps a header row. - Returns: `nil` when no column pair (or WKT column) gives coordinates.
    public init?(names: [String]) {
        self.names = names
        let keys = names.map(Self.normalized)
        func first(_ aliases: [String]) -> Int? {
            for alias in aliases { if let index = keys.firstIndex(of: alias) { return index } }
            return nil
        }
        func firstScaled(_ aliases: [(String, Unit)]) -> ScaledColumn? {
            for (alias, unit) in aliases {
                if let index = keys.firstIndex(of: alias) { return ScaledColumn(index: index, unit: unit) }
            }
            return nil
        }
        latitude = firstScaled(Self.latitudeAliases)
        longitude = firstScaled(Self.longitudeAliases)
        geometry = first(Self.geometryAliases)
        guard (latitude != nil && longitude != nil) || geometry != nil else { return nil }
        if latitude == nil || longitude == nil { latitude = nil; longitude = nil }
        var seen = Set<Int>()
        times = Self.timeAliases.compactMap { alias in keys.firstIndex(of: alias) }.filter { seen.insert($0).inserted }
        date = first(Self.dateAliases)
        endTime = first(Self.endTimeAliases)
        altitude = firstScaled(Self.altitudeAliases)
        horizontalAccuracy = first(Self.horizontalAccuracyAliases)
        verticalAccuracy = first(Self.verticalAccuracyAliases)
        course = first(Self.courseAliases)
        speed = firstScaled(Self.speedAliases)
        type = first(["type"])
        name = first(["name", "annotation"])
        address = first(["address"])
        placeIdentifier = first(["placeid"])
    }

    /// What a header must name, for the error when it names none of it.
    public static let expectedColumns =
        "a header naming latitude and longitude columns (lat/latitude/latitudeE7 and lon/lng/longitude/longitudeE7) or a WKT geom/geometry column"
}
