import TravelogCore

/// Writes CSV with the header `time,latitude,longitude,altitude,accuracy,vertical_accuracy,speed,course`:
/// ISO 8601 UTC times, degrees with 7 decimals, metres, metres per second and degrees from true
/// north; a value that is unknown or invalid is an empty field. Records end with CR LF as RFC 4180
/// asks; no field ever needs quoting. Tracks and segments are not represented.
/// Source: RFC 4180, "Common Format and MIME Type for Comma-Separated Values (CSV) Files".
public final class CSVFileWriter: LocationFileWriter {
    /// The first line of every file.
    public static let header = "time,latitude,longitude,altitude,accuracy,vertical_accuracy,speed,course"

    private let writer: DocumentWriter<CSVEncoder>

    /// - Parameters:
    ///   - sink: where the bytes go.
    ///   - document: unused by CSV (it has no title), accepted for symmetry.
    public init(sink: any ByteSink, document: ExportDocument = ExportDocument()) {
        writer = DocumentWriter(encoder: CSVEncoder(), sink: sink, document: document)
    }

    public var format: FileFormat { .csv }
    public var locationsWritten: Int { writer.locationsWritten }
    public var bytesWritten: Int { writer.bytesWritten }
    public func begin() throws(FormatError) { try writer.begin() }
    public func startTrack(named name: String?) throws(FormatError) { try writer.startTrack(named: name) }
    public func startSegment() throws(FormatError) { try writer.startSegment() }
    public func write(_ batch: [Location]) throws(FormatError) { try writer.write(batch) }
    public func finish() throws(FormatError) { try writer.finish() }
}

struct CSVEncoder: LocationDocumentEncoder {
    func writeHeader(_ document: ExportDocument, to output: OutputBuffer) {
        output.append(raw: CSVFileWriter.header)
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
