import TravelogCore

/// Writes an RFC 7946 GeoJSON `FeatureCollection` with one `Point` feature per location, one per
/// line.
///
/// Coordinates are `[longitude, latitude]` with 7 decimals, plus the altitude as a third element
/// when known. RFC 7946 §3.1.1 defines that third element as height above the WGS84 ellipsoid;
/// Travelog's altitudes are what the source reported, usually above mean sea level, and the same
/// value is in the `altitude` property. Each feature is written by `LocationFeatureWriter`, the one
/// encoding of a location that the read API and the live stream share, plus `track` (the name given
/// to `startTrack(named:)`).
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
        LocationFeatureWriter.writeFeature(location, extra: trackProperty.map { [("track", $0)] } ?? [], to: output)
    }

    func writeSegmentEnd(to output: OutputBuffer) {}

    mutating func writeTrackEnd(to output: OutputBuffer) { trackProperty = nil }

    func writeFooter(to output: OutputBuffer) {
        output.append(wroteFeature ? "\n]}\n" : "]}\n")
    }
}
