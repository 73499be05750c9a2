import TravelogCore

/// Writes CSV with the header `time,latitude,longitude,altitude,accuracy,vertical_accuracy,speed,course`:
/// ISO 8601 UTC times, degrees with 7 decimals, metres, metres per second and degrees from true
/// north; a value that is unknown or invalid is an empty field. Records end with CR LF as RFC 4180
/// asks; no field ever needs quoting. Tracks and segments are not represented.
/// Source: RFC 4180, "Common Format and MIME Type for Comma-Separated Values (CSV) Files".
struct CSVEncoder: LocationDocumentEncoder {
    /// The first line of every CSV export.
    static let header = "time,latitude,longitude,altitude,accuracy,vertical_accuracy,speed,course"

    func writeHeader(_ document: ExportDocument, to output: OutputBuffer) {
        output.append(raw: CSVEncoder.header)
        output.append("\r\n")
    }

    func writeTrackStart(name: String?, to output: OutputBuffer) {}
    func writeSegmentStart(to output: OutputBuffer) {}

    func write(_ location: Location, to output: OutputBuffer) {
        output.append(time: location.timestamp)
        output.append(UInt8(ascii: ","))
        output.append(location.coordinate.latitude, decimals: ExportPrecision.coordinateDecimals)
        output.append(UInt8(ascii: ","))
        output.append(location.coordinate.longitude, decimals: ExportPrecision.coordinateDecimals)
        appendField(location.altitudeMeters, to: output)
        appendField(location.horizontalAccuracyIfValid, to: output)
        appendField(location.exportVerticalAccuracyMeters, to: output)
        appendField(location.speedIfKnown, to: output)
        appendField(location.exportCourseDegrees, to: output)
        output.append("\r\n")
    }

    @inline(__always)
    private func appendField(_ value: Double?, to output: OutputBuffer) {
        output.append(UInt8(ascii: ","))
        if let value { output.append(trimmed: value, decimals: ExportPrecision.measurementDecimals) }
    }

    func writeSegmentEnd(to output: OutputBuffer) {}
    func writeTrackEnd(to output: OutputBuffer) {}
    func writeFooter(to output: OutputBuffer) {}
}
