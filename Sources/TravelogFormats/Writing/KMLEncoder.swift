import TravelogCore

/// Writes KML 2.2 with Google's `gx:Track`: one `Placemark` per track holding a `gx:MultiTrack`,
/// one `gx:Track` per segment, and per location a `when` (UTC) followed by its `gx:coord`
/// ("longitude latitude altitude", the altitude left out when unknown; `altitudeMode` absolute,
/// so altitudes are metres above sea level).
///
/// The pairs are interleaved, as Google's own location-history KML wrote them, so the file streams
/// without holding a track in memory; Google Earth and GPSBabel read them in that order. Speeds,
/// courses and accuracies would need per-track arrays after the last coordinate, so KML exports
/// carry positions, altitudes and times only.
/// Sources: OGC KML 2.2 (07-147r2); Google's KML reference, "gx:Track" and "gx:MultiTrack".
struct KMLEncoder: LocationDocumentEncoder {
    func writeHeader(_ document: ExportDocument, to output: OutputBuffer) {
        output.append("""
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document>

            """)
        if let name = document.name {
            output.append("  <name>")
            output.append(xmlEscaped: name)
            output.append("</name>\n")
        }
    }

    func writeTrackStart(name: String?, to output: OutputBuffer) {
        output.append("  <Placemark>\n")
        if let name {
            output.append("    <name>")
            output.append(xmlEscaped: name)
            output.append("</name>\n")
        }
        output.append("    <gx:MultiTrack>\n")
    }

    func writeSegmentStart(to output: OutputBuffer) {
        output.append("      <gx:Track>\n        <altitudeMode>absolute</altitudeMode>\n")
    }

    func write(_ location: Location, to output: OutputBuffer) {
        output.append("        <when>")
        output.append(time: location.timestamp)
        output.append("</when><gx:coord>")
        output.append(location.coordinate.longitude, decimals: ExportPrecision.coordinateDecimals)
        output.append(UInt8(ascii: " "))
        output.append(location.coordinate.latitude, decimals: ExportPrecision.coordinateDecimals)
        if let altitude = location.altitudeMeters {
            output.append(UInt8(ascii: " "))
            output.append(trimmed: altitude, decimals: ExportPrecision.measurementDecimals)
        }
        output.append("</gx:coord>\n")
    }

    func writeSegmentEnd(to output: OutputBuffer) { output.append("      </gx:Track>\n") }
    func writeTrackEnd(to output: OutputBuffer) { output.append("    </gx:MultiTrack>\n  </Placemark>\n") }
    func writeFooter(to output: OutputBuffer) { output.append("</Document>\n</kml>\n") }
}
