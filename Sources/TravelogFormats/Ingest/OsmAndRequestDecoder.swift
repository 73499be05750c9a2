import Foundation
import TravelogCore

/// Reads the uploads of the OsmAnd app's online tracking and of Traccar Client: the "OsmAnd
/// protocol" of Traccar's port 5055, as query parameters, a form body, or Traccar Client's JSON
/// body (`decode(jsonBody:receivedAt:)`).
///
/// Parameters (Traccar's `OsmAndProtocolDecoder`; names are case-sensitive):
/// - `id` or `deviceid`: the device's identifier, required.
/// - `lat`, `lon` (degrees), or `location=lat,lon`: required; latitude beyond ±90° or longitude
///   beyond ±180° is rejected.
/// - `timestamp`: epoch seconds, epoch milliseconds when ≥ 2^31 − 1, ISO 8601, or
///   `yyyy-MM-dd HH:mm:ss` read as UTC (Traccar reads it in the server's zone); absent → the
///   `receivedAt` the caller passes.
/// - `speed` in `speedUnit`; `bearing` or `heading` (degrees); `altitude` (m); `accuracy` (m);
///   `hdop`; `batt` (%); `charge` (`true`/`false`). Negative speed, course, accuracy or battery
///   means unknown.
/// - `valid`: `valid=false` keeps the fix but marks it: `IngestedLocation.isValidFix` is false and
///   the location's horizontal accuracy is negative (Core Location's "invalid coordinate"), so a
///   server that wants only good fixes drops it and one that keeps everything still has it.
/// - Any other parameter (`cell`, `wifi`, `driverUniqueId`, …) is kept as text in `attributes`.
///
/// A parameter with an empty value counts as absent. When a name is repeated the last value wins,
/// as in Traccar. Numbers may be written `5.0E-4`.
public struct OsmAndRequestDecoder: Hashable, Sendable {
    /// The unit of the `speed` parameter (the JSON body's speed is always in m/s).
    public var speedUnit: SpeedUnit

    /// - Parameter speedUnit: `.knots` for Traccar Client, `.metersPerSecond` for the OsmAnd app's
    ///   tracking template.
    public init(speedUnit: SpeedUnit) {
        self.speedUnit = speedUnit
    }

    /// Traccar Client's query parameters: speed in knots.
    public static let traccarClient = OsmAndRequestDecoder(speedUnit: .knots)
    /// The OsmAnd app's online tracking template: speed in m/s.
    public static let osmAnd = OsmAndRequestDecoder(speedUnit: .metersPerSecond)

    /// Decodes one request: the JSON body when the media type of `contentType` is
    /// `application/json`, otherwise the query parameters followed by the form body's (see
    /// `FormParameters.init(query:body:contentType:)`).
    /// - Parameters:
    ///   - query: the request target's query, without or with its `?` (empty when there is none).
    ///   - contentType: the `Content-Type` header, `nil` when absent.
    ///   - body: the request body (empty for a `GET`).
    ///   - receivedAt: when the server received the request: the fix's time when it has none.
    /// - Throws: `IngestError` naming the field and what was expected.
    public func decode(query: some StringProtocol, contentType: String?, body: some Collection<UInt8>,
                       receivedAt: Date) throws(IngestError) -> IngestedLocation {
        if FormParameters.mediaType(of: contentType) == "application/json" {
            return try decode(jsonBody: body, receivedAt: receivedAt)
        }
        return try decode(FormParameters(query: query, body: body, contentType: contentType), receivedAt: receivedAt)
    }

    /// Decodes query or form parameters.
    /// - Parameter receivedAt: the fix's time when the parameters give none.
    /// - Throws: `IngestError.missingField("id")` without `id`/`deviceid`, `.missingField("lat")` or
    ///   `("lon")` without a position, `.invalidNumber`, `.invalidBoolean`, `.invalidTimestamp`,
    ///   `.outOfRange`.
    public func decode(_ parameters: FormParameters, receivedAt: Date) throws(IngestError) -> IngestedLocation {
        var fields = IngestFields()
        for parameter in parameters where !parameter.value.isEmpty {
            try read(parameter, into: &fields)
        }
        return try fields.ingestedLocation(names: .init(deviceIdentifier: "id", latitude: "lat", longitude: "lon"),
                                           receivedAt: receivedAt)
    }

    private func read(_ parameter: FormParameters.Parameter, into fields: inout IngestFields) throws(IngestError) {
        let name = parameter.name, value = parameter.value
        switch name {
        case "id", "deviceid":
            fields.deviceIdentifier = value
        case "valid":
            fields.isValidFix = try IngestFields.boolean(value, field: name)
        case "timestamp":
            fields.time = try IngestFields.timestamp(value, field: name)
        case "lat":
            fields.latitudeDegrees = try IngestFields.number(value, field: name)
        case "lon":
            fields.longitudeDegrees = try IngestFields.number(value, field: name)
        case "location":
            let parts = value.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .invalidNumber(field: name, value: value) }
            fields.latitudeDegrees = try IngestFields.number(String(parts[0]), field: name)
            fields.longitudeDegrees = try IngestFields.number(String(parts[1]), field: name)
        case "speed":
            let speed = try IngestFields.number(value, field: name)
            fields.speedMetersPerSecond = IngestFields.nonNegative(speed).map(speedUnit.metersPerSecond)
        case "bearing", "heading":
            fields.courseDegrees = try IngestFields.course(try IngestFields.number(value, field: name), field: name)
        case "altitude":
            fields.altitudeMeters = try IngestFields.number(value, field: name)
        case "accuracy":
            fields.horizontalAccuracyMeters = IngestFields.nonNegative(try IngestFields.number(value, field: name))
        case "hdop":
            fields.horizontalDilutionOfPrecision = IngestFields.nonNegative(try IngestFields.number(value, field: name))
        case "batt":
            fields.batteryPercent = try IngestFields.batteryPercent(try IngestFields.number(value, field: name), field: name)
        case "charge":
            fields.isCharging = try IngestFields.boolean(value, field: name)
        default:
            fields.attributes[name] = value
        }
    }
}
