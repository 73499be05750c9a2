import Foundation
import TravelogCore

/// Locations as GeoJSON `Point` features with Travelog's one set of property names: the GeoJSON
/// export, the read API (`/api/v1/locations`, `/api/v1/latest`) and the live stream all write a
/// location through here, so a client reads `accuracy` wherever a location comes from.
///
/// Coordinates are `[longitude, latitude]` with 7 decimals (1 cm; storage keeps 1e-7°), plus the
/// altitude when known. Properties: `timestamp` (ISO 8601 UTC), then, when known, `altitude` (m),
/// `accuracy` and `vertical_accuracy` (m), `speed` (m/s), `course` (degrees from true north) and
/// `utc_offset_seconds` (the offset the source wrote its time with), then the caller's own members
/// (`device`, `source`, `track`). Unknown values are left out rather than written as null.
/// Source: RFC 7946, "The GeoJSON Format".
///
/// ```
/// let writer = LocationFeatureWriter()
/// writer.write(location, extra: [("device", "phone")])
/// let json = writer.take()   // {"type":"Feature","geometry":…,"properties":{…}}
/// ```
public final class LocationFeatureWriter {
    private let buffer = OutputBuffer(sink: MemoryByteSink(), drainThresholdBytes: 1 << 14)

    public init() {}

    /// Appends one feature. - Parameter extra: string properties written last, as
    /// (name, value); names are written as they are (ASCII that JSON needs no escape for).
    public func write(_ location: Location, extra: [(String, String)] = []) {
        Self.writeFeature(location, extra: extra.map { ($0.0, OutputBuffer.jsonEscapedString($0.1)) }, to: buffer)
    }

    /// Appends text as it is (a separator such as `,`).
    public func append(raw text: String) { buffer.append(raw: text) }

    /// Everything written since the last `take()`, as text.
    public func take() -> String {
        var bytes: [UInt8] = []
        buffer.takePending(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One location as a feature. - Parameter extra: (name, value already escaped for JSON).
    static func writeFeature(_ location: Location, extra: [(String, String)], to output: OutputBuffer) {
        output.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
        output.append(location.coordinate.longitude, decimals: ExportPrecision.coordinateDecimals)
        output.append(UInt8(ascii: ","))
        output.append(location.coordinate.latitude, decimals: ExportPrecision.coordinateDecimals)
        if let altitude = location.altitudeMeters {
            output.append(UInt8(ascii: ","))
            output.append(trimmed: altitude, decimals: ExportPrecision.measurementDecimals)
        }
        output.append("]},\"properties\":{\"timestamp\":\"")
        output.append(time: location.timestamp)
        output.append(UInt8(ascii: "\""))
        appendMeasurement("\"altitude\":", location.altitudeMeters, to: output)
        appendMeasurement("\"accuracy\":", location.horizontalAccuracyIfValid, to: output)
        appendMeasurement("\"vertical_accuracy\":", location.exportVerticalAccuracyMeters, to: output)
        appendMeasurement("\"speed\":", location.speedIfKnown, to: output)
        appendMeasurement("\"course\":", location.exportCourseDegrees, to: output)
        if let offset = location.utcOffsetSeconds {
            output.append(",\"utc_offset_seconds\":")
            output.append(integer: offset)
        }
        for (name, escapedValue) in extra {
            output.append(",\"")
            output.append(raw: name)
            output.append("\":\"")
            output.append(raw: escapedValue)
            output.append(UInt8(ascii: "\""))
        }
        output.append("}}")
    }

    @inline(__always)
    private static func appendMeasurement(_ key: StaticString, _ value: Double?, to output: OutputBuffer) {
        guard let value, value.isFinite else { return }
        output.append(UInt8(ascii: ","))
        output.append(key)
        output.append(trimmed: value, decimals: ExportPrecision.measurementDecimals)
    }
}
