import Foundation
import TravelogCore

/// Reads the uploads of GPSLogger for Android's "Log to custom URL", set up with the parameters
/// Travelog documents (`queryTemplate`): a `GET` with them in the query, or a `POST` with them as
/// an `application/x-www-form-urlencoded` body (`FormParameters.init(query:body:contentType:)`).
///
/// Each parameter is named after GPSLogger's placeholder, in lower case:
/// - `lat`, `lon` (`%LAT`, `%LON`, degrees): required.
/// - `time` (`%TIME`, ISO 8601 UTC; `%TIMEOFFSET` also fits and keeps the phone's UTC offset),
///   `timeoffset`, or `timestamp` (`%TIMESTAMP`, epoch seconds); a calendar time is preferred to
///   the epoch (it carries milliseconds). None → the `receivedAt` the caller passes.
/// - `alt` (`%ALT`, m; Android reports height above the WGS84 ellipsoid unless GPSLogger is set to
///   subtract the geoid height), `acc` (`%ACC`, m), `spd` (`%SPD`, m/s), `dir` (`%DIR`, degrees),
///   `batt` (`%BATT`, %), `ischarging` (`%ISCHARGING`, true/false), `hdop` (`%HDOP`).
/// - The device: `device` when given (a name the user types into the URL), else `aid`
///   (`%AID`, the Android ID, stable per phone and app), else `ser` (`%SER`, the serial number,
///   `unknown` on recent Android); one of them is required.
/// - Everything else (`prov`, `sat`, `desc`, `vdop`, `pdop`, `dist`, `profile`, `aid`, `ser`, …)
///   is kept as text in `attributes`.
///
/// GPSLogger writes an empty string for a value it does not know: an empty value is absent.
/// When a name is repeated, the last value wins.
public enum GPSLoggerRequestDecoder {
    /// The query (or form body) to paste into GPSLogger's custom URL after `https://…/path?`.
    public static let queryTemplate =
        "lat=%LAT&lon=%LON&time=%TIME&alt=%ALT&acc=%ACC&spd=%SPD&dir=%DIR&batt=%BATT&ischarging=%ISCHARGING"
        + "&aid=%AID&prov=%PROV&hdop=%HDOP&sat=%SAT"

    /// The URL to paste into GPSLogger: `endpoint` (`https://travelog.example/ingest/gpslogger`)
    /// followed by `?` and `queryTemplate`.
    public static func urlTemplate(endpoint: String) -> String {
        endpoint + "?" + queryTemplate
    }

    /// Decodes one request's parameters.
    /// - Parameter receivedAt: the fix's time when the parameters give none.
    /// - Throws: `IngestError.missingField("device")` without `device`, `aid` or `ser`,
    ///   `.missingField("lat")`/`("lon")`, `.invalidNumber`, `.invalidBoolean`,
    ///   `.invalidTimestamp`, `.outOfRange`.
    public static func decode(_ parameters: FormParameters, receivedAt: Date) throws(IngestError) -> IngestedLocation {
        var fields = IngestFields()
        var calendarTime: ParsedTimestamp?, epochTime: ParsedTimestamp?
        var device: String?, androidID: String?, serial: String?
        for parameter in parameters where !parameter.value.isEmpty {
            let name = parameter.name, value = parameter.value
            switch name {
            case "lat": fields.latitudeDegrees = try IngestFields.number(value, field: name)
            case "lon": fields.longitudeDegrees = try IngestFields.number(value, field: name)
            case "time", "timeoffset": calendarTime = try IngestFields.timestamp(value, field: name)
            case "timestamp": epochTime = try IngestFields.timestamp(value, field: name)
            case "alt": fields.altitudeMeters = try IngestFields.number(value, field: name)
            case "acc": fields.horizontalAccuracyMeters = IngestFields.nonNegative(try IngestFields.number(value, field: name))
            case "spd": fields.speedMetersPerSecond = IngestFields.nonNegative(try IngestFields.number(value, field: name))
            case "dir": fields.courseDegrees = try IngestFields.course(try IngestFields.number(value, field: name), field: name)
            case "batt":
                fields.batteryPercent = try IngestFields.batteryPercent(try IngestFields.number(value, field: name), field: name)
            case "ischarging": fields.isCharging = try IngestFields.boolean(value, field: name)
            case "hdop":
                fields.horizontalDilutionOfPrecision = IngestFields.nonNegative(try IngestFields.number(value, field: name))
            case "device": device = value
            default:
                if name == "aid" { androidID = value }
                if name == "ser" { serial = value }
                fields.attributes[name] = value
            }
        }
        fields.time = calendarTime ?? epochTime
        fields.deviceIdentifier = device ?? androidID ?? serial
        return try fields.ingestedLocation(names: .init(deviceIdentifier: "device", latitude: "lat", longitude: "lon"),
                                           receivedAt: receivedAt)
    }

    /// Decodes one request from its query, `Content-Type` and body (see
    /// `FormParameters.init(query:body:contentType:)` and `decode(_:receivedAt:)`).
    public static func decode(query: some StringProtocol, contentType: String?, body: some Collection<UInt8>,
                              receivedAt: Date) throws(IngestError) -> IngestedLocation {
        try decode(FormParameters(query: query, body: body, contentType: contentType), receivedAt: receivedAt)
    }
}
