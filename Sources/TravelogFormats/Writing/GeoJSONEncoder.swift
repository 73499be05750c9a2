import TravelogCore

/// Writes an RFC 7946 GeoJSON `FeatureCollection` with one `Point` feature per location, one per
/// line.
///
/// Coordinates are `[longitude, latitude]` with 7 decimals, plus the altitude as a third element
/// when known. RFC 7946 §3.1.1 defines that third element as height above the WGS84 ellipsoid;
/// Travelog's altitudes are what the source reported, usually above mean sea level, and the same
/// value is in the `altitude` property. Properties: `timestamp` (ISO 8601 UTC), then, when known,
/// `altitude` (m), `accuracy` and `vertical_accuracy` (m), `speed` (m/s), `course` (degrees from
/// true north), `utc_offset_seconds` (the offset the source wrote its time with) and `track` (the
/// name given to `startTrack(named:)`). Unknown values are left out rather than written as null.
/// Source: RFC 7946, "The GeoJSON Format".
struct GeoJSONEncoder: LocationDocumentEncoder {
    private var wroteFeature = false
    /// The current track's name, already escaped for JSON.
    private var trackProperty: String?

    func writeHeader(_ document: ExportDocument, to output: OutputBuffer) {
        output.append("{\"type\":\"FeatureCollection\",\"features\":[\n")
    }

    mutating func writeTrackStart(name: String?, to output: OutputBuffer) {
        trackProperty = name.map(OutputBuffer.jsonEscapedString)
    }

    func writeSegmentStart(to output: OutputBuffer) {}

    mutating func write(_ location: Location, to output: OutputBuffer) {
        if wroteFeature { output.append(",\n") }
        wroteFeature = true
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
        if let trackProperty {
            output.append(",\"track\":\"")
            output.append(raw: trackProperty)
            output.append(UInt8(ascii: "\""))
        }
        output.append("}}")
    }

    @inline(__always)
    private func appendMeasurement(_ key: StaticString, _ value: Double?, to output: OutputBuffer) {
        guard let value else { return }
        output.append(UInt8(ascii: ","))
        output.append(key)
        output.append(trimmed: value, decimals: ExportPrecision.measurementDecimals)
    }

    func writeSegmentEnd(to output: OutputBuffer) {}

    mutating func writeTrackEnd(to output: OutputBuffer) { trackProperty = nil }

    func writeFooter(to output: OutputBuffer) {
        output.append(wroteFeature ? "\n]}\n" : "]}\n")
    }
}
