import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

@Suite("Format detection")
struct FormatDetectorTests {
    static func detect(_ text: String) -> FormatDetector.Detection {
        FormatDetector.detect(prefix: Array(text.utf8))
    }

    @Test("formats are recognised from their content", arguments: [
        (#"<?xml version="1.0"?><!-- made by hand --><gpx version="1.1">"#, FileFormat.gpx),
        (#"<kml:kml xmlns:kml="http://www.opengis.net/kml/2.2">"#, .kml),
        (#"{"locations": [{"latitudeE7": 1, "longitudeE7": 2, "timestampMs": "3"}]}"#, .googleRecords),
        (#"{"locations": [{"type": "Feature", "geometry": {"type": "Point"}}]}"#, .geojson),
        (#"{"type": "FeatureCollection", "features": []}"#, .geojson),
        (#"{"timelineObjects": [{"placeVisit": {}}]}"#, .googleSemantic),
        (#"{"semanticSegments": [{"startTime": "2024-01-01T00:00:00+01:00"}]}"#, .googleTimeline),
        (#"[{"endTime": "2023-08-27T17:04:26.999-05:00", "startTime": "2023-08-27T15:48:56.000-05:00", "visit": {}}]"#, .googleTimelineIOS),
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n", .nmea),
        ("2015-08-24T05:55:07Z\t*                 \t{\"_type\":\"location\"}\n", .owntracks),
        ("Geolife trajectory\nWGS 84\n", .geolife),
        ("time,lat,lon,elevation,accuracy\n2024-06-15T10:30:00Z,52.52,13.405,34,8\n", .csv),
        ("\"Type\",\"Name\",\"Latitude\",\"Longitude\"\n", .csv),
    ])
    func recognised(text: String, format: FileFormat) {
        #expect(Self.detect(text) == .format(format))
    }

    @Test("files that are not location history are named as such")
    func notLocationHistory() {
        #expect(Self.detect(#"{"timelineEdits": []}"#) == .notLocationHistory("Google Timeline Edits (edits of the timeline, not locations)"))
        guard case .notLocationHistory = Self.detect(#"{"gaiaId": "1", "deviceSettings": []}"#) else {
            Issue.record("settings file not recognised")
            return
        }
    }

    @Test("a UTF-8 BOM and a UTF-16 BOM are looked past")
    func byteOrderMarks() {
        #expect(FormatDetector.detect(prefix: [0xEF, 0xBB, 0xBF] + Array("<gpx>".utf8)) == .format(.gpx))
        let units = "$GPZDA,032908,07,08,2004,00,00*48".utf16.flatMap { (unit: UInt16) -> [UInt8] in
            [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let utf16: [UInt8] = [0xFF, 0xFE] + units
        #expect(FormatDetector.detect(prefix: utf16) == .format(.nmea))
    }

    @Test("an escaped quote or backslash in a value does not hide the keys after it (schemathesis)")
    func escapesInValues() {
        #expect(Self.detect(#"{"path": "C:\\", "type": "FeatureCollection", "features": []}"#) == .format(.geojson))
        #expect(Self.detect(#"{"note": "\\", "_type": "location", "lat": 1, "lon": 2, "tst": 3}"#) == .format(.owntracks))
        #expect(Self.detect(#"{"a\"b": "say \"hi\"", "type": "FeatureCollection", "features": []}"#) == .format(.geojson))
    }

    @Test("plain text and empty files are unknown", arguments: ["", "hello world", "{\"a\": 1}"])
    func unknown(text: String) {
        #expect(Self.detect(text) == .unknown)
    }
}
