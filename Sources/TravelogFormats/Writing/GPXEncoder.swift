import TravelogCore

/// Writes GPX 1.1: one `trk` per track, one `trkseg` per segment, a `trkpt` per location with its
/// elevation (`ele`, metres) and its time in UTC (milliseconds when there are some).
///
/// Speed (m/s) and course (degrees from true north) go into Garmin's TrackPointExtension v2
/// (`gpxtpx:speed`, `gpxtpx:course`), the schema-valid place GPX 1.1 readers such as Garmin
/// Connect and Strava look for them; GPX 1.1 itself has no such elements. GPSBabel 1.8 reads the
/// positions, elevations and times of these files but ignores those two extension elements.
/// GPX has no field for accuracies in metres; use GeoJSON or CSV to keep them.
/// Sources: GPX 1.1 schema (topografix.com/GPX/1/1/gpx.xsd), Garmin TrackPointExtensionv2.xsd.
struct GPXEncoder: LocationDocumentEncoder {
    func writeHeader(_ document: ExportDocument, to output: OutputBuffer) {
        output.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"")
        output.append(xmlEscaped: document.creator)
        output.append("""
            " xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v2 https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

            """)
        if let name = document.name {
            output.append("  <metadata>\n    <name>")
            output.append(xmlEscaped: name)
            output.append("</name>\n  </metadata>\n")
        }
    }

    func writeTrackStart(name: String?, to output: OutputBuffer) {
        output.append("  <trk>\n")
        if let name {
            output.append("    <name>")
            output.append(xmlEscaped: name)
            output.append("</name>\n")
        }
    }

    func writeSegmentStart(to output: OutputBuffer) { output.append("    <trkseg>\n") }

    func write(_ location: Location, to output: OutputBuffer) {
        output.append("      <trkpt lat=\"")
        output.append(location.coordinate.latitude, decimals: ExportPrecision.coordinateDecimals)
        output.append("\" lon=\"")
        output.append(location.coordinate.longitude, decimals: ExportPrecision.coordinateDecimals)
        output.append("\">")
        if let altitude = location.altitudeMeters {
            output.append("<ele>")
            output.append(trimmed: altitude, decimals: ExportPrecision.measurementDecimals)
            output.append("</ele>")
        }
        output.append("<time>")
        output.append(time: location.timestamp)
        output.append("</time>")
        let speed = location.speedIfKnown
        let course = location.exportCourseDegrees
        if speed != nil || course != nil {
            output.append("<extensions><gpxtpx:TrackPointExtension>")
            if let speed {
                output.append("<gpxtpx:speed>")
                output.append(trimmed: speed, decimals: ExportPrecision.measurementDecimals)
                output.append("</gpxtpx:speed>")
            }
            if let course {
                output.append("<gpxtpx:course>")
                output.append(trimmed: course, decimals: ExportPrecision.measurementDecimals)
                output.append("</gpxtpx:course>")
            }
            output.append("</gpxtpx:TrackPointExtension></extensions>")
        }
        output.append("</trkpt>\n")
    }

    func writeSegmentEnd(to output: OutputBuffer) { output.append("    </trkseg>\n") }
    func writeTrackEnd(to output: OutputBuffer) { output.append("  </trk>\n") }
    func writeFooter(to output: OutputBuffer) { output.append("</gpx>\n") }
}
