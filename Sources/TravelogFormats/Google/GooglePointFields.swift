import TravelogCore

/// What one Google record says about a point, gathered field by field before it is checked and
/// turned into a `FormatRecord`. Shared by every Google reader so that they reject the same way.
struct GooglePointFields {
    /// Degrees; nil when absent, NaN when present but not a number.
    var latitude: Double?
    /// Degrees; nil when absent, NaN when present but not a number.
    var longitude: Double?
    var time = GoogleTime.Reading.absent
    var horizontalAccuracyMeters: Double?
    var altitudeMeters: Double?
    var verticalAccuracyMeters: Double?
    var speedMetersPerSecond: Double?
    var courseDegrees: Double?
    /// Where the record starts in the file.
    var position: SourcePosition

    init(position: SourcePosition) {
        self.position = position
    }

    /// Sets both components from `"geo:lat,lon"` or `"lat°, lon°"` text; NaN when it does not parse.
    mutating func setCoordinate(text: UnsafeBufferPointer<UInt8>) {
        if let parsed = GoogleCoordinates.parse(text: text) {
            latitude = parsed.latitude
            longitude = parsed.longitude
        } else {
            latitude = .nan
            longitude = .nan
        }
    }

    /// The record: a point of `kind`, or a rejection saying what is wrong.
    /// - Parameters:
    ///   - requiresTime: whether a point without a time is a wrong record (Records.json) rather than
    ///     an untimed point (a waypoint path).
    ///   - fields: the field names a rejection mentions.
    func record(kind: FormatPoint.Kind, requiresTime: Bool, fields: FieldNames) -> FormatRecord {
        let coordinate: Coordinate
        switch GoogleCoordinates.coordinate(
            latitude: latitude, longitude: longitude, latitudeField: fields.latitude, longitudeField: fields.longitude
        ) {
        case .valid(let value): coordinate = value
        case .rejected(let reason): return .rejected(RecordRejection(position: position, reason: reason))
        }
        switch time {
        case .valid(let instant):
            let location = Location(
                coordinate: coordinate,
                altitudeMeters: altitudeMeters,
                horizontalAccuracyMeters: horizontalAccuracyMeters ?? -1,
                verticalAccuracyMeters: verticalAccuracyMeters ?? -1,
                speedMetersPerSecond: speedMetersPerSecond ?? -1,
                courseDegrees: courseDegrees ?? -1,
                timestamp: instant.date,
                utcOffsetSeconds: instant.utcOffsetSeconds
            )
            return .point(FormatPoint(kind: kind, position: .fix(location)))
        case .absent:
            guard !requiresTime else {
                return .rejected(RecordRejection(position: position, reason: .missingField(fields.time)))
            }
            return .point(FormatPoint(kind: kind, position: .untimed(coordinate, altitudeMeters: altitudeMeters)))
        case .invalid(let text):
            return .rejected(RecordRejection(position: position, reason: .invalidTime(text)))
        }
    }

    /// The names of the fields as the file spells them, for rejections.
    struct FieldNames {
        var latitude: String
        var longitude: String
        var time: String

        static let records = FieldNames(latitude: "latitudeE7", longitude: "longitudeE7", time: "timestamp")
        static let pathPoint = FieldNames(latitude: "latE7", longitude: "lngE7", time: "timestamp")
        static let location = FieldNames(latitude: "latitudeE7", longitude: "longitudeE7", time: "duration")
        static let latLng = FieldNames(latitude: "latLng", longitude: "latLng", time: "timestamp")
        static let timelinePoint = FieldNames(latitude: "point", longitude: "point", time: "time")
    }
}
