import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("Writers: golden output")
struct WriterGoldenTests {
    /// Two tracks: a named one with two segments (every value known in the first point, none in the
    /// second, the antimeridian and negative coordinates in the second segment) and an unnamed one.
    static func tracks() throws -> [(name: String?, segments: [[Location]])] {
        [
            (name: "Phone & <Watch>", segments: [
                [
                    try ExportSamples.location(47.3769, 8.541694, time: "2024-03-01T12:00:00.123Z", altitude: 408.25,
                                               accuracy: 5, verticalAccuracy: 3.5, speed: 1.25, course: 270.5,
                                               utcOffsetSeconds: 3600),
                    try ExportSamples.location(47.37701, 8.5418, time: "2024-03-01T12:00:05Z"),
                ],
                [
                    try ExportSamples.location(-16.5, 179.99999996, time: "2024-03-01T13:00:00Z", altitude: -2,
                                               speed: 0, course: 359.9999),
                    try ExportSamples.location(-16.50000004, -179.9999999, time: "2024-03-01T13:00:01.5Z", accuracy: 12),
                ],
            ]),
            (name: nil, segments: [[
                try ExportSamples.location(-0.00000004, -0.5, time: "1999-12-31T23:59:59.999Z", altitude: 0),
            ]]),
        ]
    }

    static let document = ExportDocument(name: "Trip \"north\"")

    @Test("GPX 1.1: a trk per track, a trkseg per segment, speed and course in TrackPointExtension v2")
    func gpx() throws {
        let expected = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Travelog" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd http://www.garmin.com/xmlschemas/TrackPointExtension/v2 https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
              <metadata>
                <name>Trip &quot;north&quot;</name>
              </metadata>
              <trk>
                <name>Phone &amp; &lt;Watch&gt;</name>
                <trkseg>
                  <trkpt lat="47.3769000" lon="8.5416940"><ele>408.25</ele><time>2024-03-01T12:00:00.123Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.25</gpxtpx:speed><gpxtpx:course>270.5</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
                  <trkpt lat="47.3770100" lon="8.5418000"><time>2024-03-01T12:00:05Z</time></trkpt>
                </trkseg>
                <trkseg>
                  <trkpt lat="-16.5000000" lon="180.0000000"><ele>-2</ele><time>2024-03-01T13:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>0</gpxtpx:speed><gpxtpx:course>0</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
                  <trkpt lat="-16.5000000" lon="-179.9999999"><time>2024-03-01T13:00:01.500Z</time></trkpt>
                </trkseg>
              </trk>
              <trk>
                <trkseg>
                  <trkpt lat="0.0000000" lon="-0.5000000"><ele>0</ele><time>1999-12-31T23:59:59.999Z</time></trkpt>
                </trkseg>
              </trk>
            </gpx>

            """#
        #expect(try ExportSamples.export(.gpx, Self.tracks(), document: Self.document) == expected)
    }

    @Test("KML 2.2: a Placemark per track, a gx:Track per segment, when and gx:coord interleaved")
    func kml() throws {
        let expected = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document>
              <name>Trip &quot;north&quot;</name>
              <Placemark>
                <name>Phone &amp; &lt;Watch&gt;</name>
                <gx:MultiTrack>
                  <gx:Track>
                    <altitudeMode>absolute</altitudeMode>
                    <when>2024-03-01T12:00:00.123Z</when><gx:coord>8.5416940 47.3769000 408.25</gx:coord>
                    <when>2024-03-01T12:00:05Z</when><gx:coord>8.5418000 47.3770100</gx:coord>
                  </gx:Track>
                  <gx:Track>
                    <altitudeMode>absolute</altitudeMode>
                    <when>2024-03-01T13:00:00Z</when><gx:coord>180.0000000 -16.5000000 -2</gx:coord>
                    <when>2024-03-01T13:00:01.500Z</when><gx:coord>-179.9999999 -16.5000000</gx:coord>
                  </gx:Track>
                </gx:MultiTrack>
              </Placemark>
              <Placemark>
                <gx:MultiTrack>
                  <gx:Track>
                    <altitudeMode>absolute</altitudeMode>
                    <when>1999-12-31T23:59:59.999Z</when><gx:coord>-0.5000000 0.0000000 0</gx:coord>
                  </gx:Track>
                </gx:MultiTrack>
              </Placemark>
            </Document>
            </kml>

            """#
        #expect(try ExportSamples.export(.kml, Self.tracks(), document: Self.document) == expected)
    }

    @Test("GeoJSON: a Point Feature per location, [lon, lat, alt] with 7 decimals, unknown values left out")
    func geojson() throws {
        let expected = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5416940,47.3769000,408.25]},"properties":{"timestamp":"2024-03-01T12:00:00.123Z","altitude":408.25,"accuracy":5,"vertical_accuracy":3.5,"speed":1.25,"course":270.5,"utc_offset_seconds":3600,"track":"Phone & <Watch>"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5418000,47.3770100]},"properties":{"timestamp":"2024-03-01T12:00:05Z","track":"Phone & <Watch>"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[180.0000000,-16.5000000,-2]},"properties":{"timestamp":"2024-03-01T13:00:00Z","altitude":-2,"speed":0,"course":0,"track":"Phone & <Watch>"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-179.9999999,-16.5000000]},"properties":{"timestamp":"2024-03-01T13:00:01.500Z","accuracy":12,"track":"Phone & <Watch>"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.5000000,0.0000000,0]},"properties":{"timestamp":"1999-12-31T23:59:59.999Z","altitude":0}}
            ]}

            """#
        #expect(try ExportSamples.export(.geojson, Self.tracks(), document: Self.document) == expected)
    }

    @Test("CSV: the fixed header, ISO times, empty fields for unknown values, CR LF line ends")
    func csv() throws {
        let expected = [
            "time,latitude,longitude,altitude,accuracy,vertical_accuracy,speed,course",
            "2024-03-01T12:00:00.123Z,47.3769000,8.5416940,408.25,5,3.5,1.25,270.5",
            "2024-03-01T12:00:05Z,47.3770100,8.5418000,,,,,",
            "2024-03-01T13:00:00Z,-16.5000000,180.0000000,-2,,,0,0",
            "2024-03-01T13:00:01.500Z,-16.5000000,-179.9999999,,12,,,",
            "1999-12-31T23:59:59.999Z,0.0000000,-0.5000000,0,,,,",
        ].map { $0 + "\r\n" }.joined()
        #expect(try ExportSamples.export(.csv, Self.tracks(), document: Self.document) == expected)
    }
}
