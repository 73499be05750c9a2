import Foundation
import TravelogCore

/// The fields of one upload as the decoders collect them, before they are checked together and
/// become an `IngestedLocation`. Every decoder (query/form, JSON) fills one of these, so the
/// rules for ranges, unknown values and the fallback time live here only.
struct IngestFields {
    var deviceIdentifier: String?
    var latitudeDegrees: Double?
    var longitudeDegrees: Double?
    var time: ParsedTimestamp?
    var altitudeMeters: Double?
    var horizontalAccuracyMeters: Double?
    var verticalAccuracyMeters: Double?
    var speedMetersPerSecond: Double?
    var speedAccuracyMetersPerSecond: Double?
    var courseDegrees: Double?
    var courseAccuracyDegrees: Double?
    var isValidFix = true
    var batteryPercent: Double?
    var isCharging: Bool?
    var horizontalDilutionOfPrecision: Double?
    var attributes: [String: String] = [:]

    /// The names the errors use for the fields, which differ between the protocols.
    struct FieldNames {
        var deviceIdentifier: String
        var latitude: String
        var longitude: String
    }

    /// Checks the fields together and builds the location.
    /// - Parameter receivedAt: the time of the fix when the upload gave none.
    /// - Throws: `IngestError.missingField` without a device identifier, latitude or longitude;
    ///   `.outOfRange` for a latitude beyond ±90° or a longitude beyond ±180°.
    func ingestedLocation(names: FieldNames, receivedAt: Date) throws(IngestError) -> IngestedLocation {
        guard let deviceIdentifier, !deviceIdentifier.isEmpty else { throw .missingField(names.deviceIdentifier) }
        guard let latitudeDegrees else { throw .missingField(names.latitude) }
        guard let longitudeDegrees else { throw .missingField(names.longitude) }
        // Coordinate would wrap a longitude of 200°; from a phone that is a bug, not a position.
        guard (-180...180).contains(longitudeDegrees) else { throw .outOfRange(field: names.longitude, value: longitudeDegrees) }
        let coordinate: Coordinate
        do throws(CoordinateError) {
            coordinate = try Coordinate(latitude: latitudeDegrees, longitude: longitudeDegrees)
        } catch {
            throw .outOfRange(field: names.latitude, value: latitudeDegrees)
        }
        let location = Location(
            coordinate: coordinate,
            altitudeMeters: altitudeMeters,
            horizontalAccuracyMeters: isValidFix ? horizontalAccuracyMeters ?? -1 : -1,
            verticalAccuracyMeters: verticalAccuracyMeters ?? -1,
            speedMetersPerSecond: speedMetersPerSecond ?? -1,
            speedAccuracyMetersPerSecond: speedAccuracyMetersPerSecond ?? -1,
            courseDegrees: courseDegrees ?? -1,
            courseAccuracyDegrees: courseAccuracyDegrees ?? -1,
            timestamp: time?.date ?? receivedAt,
            utcOffsetSeconds: time?.utcOffsetSeconds)
        return IngestedLocation(deviceIdentifier: deviceIdentifier, location: location, isValidFix: isValidFix,
                                batteryPercent: batteryPercent, isCharging: isCharging,
                                horizontalDilutionOfPrecision: horizontalDilutionOfPrecision, attributes: attributes)
    }

    // MARK: Values, checked one at a time

    /// A course in degrees clockwise from north: negative means unknown (`nil`), 360 is north
    /// (0); more than 360 cannot be.
    static func course(_ degrees: Double, field: String) throws(IngestError) -> Double? {
        guard degrees >= 0 else { return nil }
        guard degrees <= 360 else { throw .outOfRange(field: field, value: degrees) }
        return degrees == 360 ? 0 : degrees
    }

    /// A battery charge in percent: negative means unknown (`nil`); more than 100 cannot be.
    static func batteryPercent(_ percent: Double, field: String) throws(IngestError) -> Double? {
        guard percent >= 0 else { return nil }
        guard percent <= 100 else { throw .outOfRange(field: field, value: percent) }
        return percent
    }

    /// A value that is unknown when negative (accuracy, speed, dilution of precision).
    static func nonNegative(_ value: Double) -> Double? {
        value >= 0 ? value : nil
    }
}

/// Reading the text values of query and form parameters.
extension IngestFields {
    /// A finite decimal number: `52.5`, `-0.5`, `.5`, `5.0E-4`, `+3`.
    static func number(_ text: String, field: String) throws(IngestError) -> Double {
        var text = text
        let value = text.withUTF8 { DecimalNumber.parse($0) }
        guard let value, value.isFinite else { throw .invalidNumber(field: field, value: text) }
        return value
    }

    /// `true`/`false` in any case, or `1`/`0`.
    static func boolean(_ text: String, field: String) throws(IngestError) -> Bool {
        switch text.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: throw .invalidBoolean(field: field, value: text)
        }
    }

    /// Epoch seconds (milliseconds from 2^31 − 1 up), ISO 8601 / RFC 3339, or
    /// `yyyy-MM-dd HH:mm:ss` without a zone, read as UTC (`TimestampParser`).
    static func timestamp(_ text: String, field: String, accepting forms: TimestampParser.Forms = .all) throws(IngestError) -> ParsedTimestamp {
        do throws(TimestampError) {
            return try TimestampParser.parse(text, accepting: forms)
        } catch {
            throw .invalidTimestamp(field: field, value: text, reason: error)
        }
    }
}
