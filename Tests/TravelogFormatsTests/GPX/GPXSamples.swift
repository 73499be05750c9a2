/// Small GPX documents, one per quirk found in the wild (see PROTOCOLS.md "GPX and KML").
enum GPXSamples {
    /// GPX 1.1 in its namespace: metadata, a track of two segments, names, a Garmin v2 extension.
    static let gpx11 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
          <metadata><name>Day</name><time>2024-06-01T00:00:00Z</time></metadata>
          <trk>
            <name>Walk</name>
            <trkseg>
              <trkpt lat="47.3769" lon="8.5417"><ele>408.5</ele><time>2024-06-01T08:00:00Z</time><name>Start</name></trkpt>
              <trkpt lat="47.3770" lon="8.5419"><ele>409</ele><time>2024-06-01T08:00:05.250Z</time>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>97</gpxtpx:hr><gpxtpx:speed>1.4</gpxtpx:speed><gpxtpx:course>45.5</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
              </trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="-33.8688" lon="151.2093"><time>2024-06-01T08:10:00Z</time></trkpt>
            </trkseg>
          </trk>
        </gpx>
        """

    /// GPX 1.0 without any namespace declaration (gpxpy's track_with_speed.gpx shape), `speed`
    /// and `course` as elements, a `time` of the document that belongs to no point.
    static let gpx10WithoutNamespace = """
        <gpx>
            <time>2007-03-02T10:34:03Z</time>
            <trk><trkseg>
                <trkpt lat="52.330848" lon="5.541371"><ele>48.962041</ele><time>2009-03-02T14:05:52Z</time><speed>1.2</speed><course>360</course></trkpt>
                <trkpt lat="52.330951" lon="5.541344"><time>2009-03-02T14:05:58Z</time><speed>2.2</speed><course>359.9</course></trkpt>
            </trkseg></trk>
        </gpx>
        """

    /// The same points as `gpx11`'s first segment under a prefix instead of a default namespace.
    static let prefixed = """
        <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1" creator="test">
          <g:trk><g:trkseg>
            <g:trkpt lat="47.3769" lon="8.5417"><g:ele>408.5</g:ele><g:time>2024-06-01T08:00:00Z</g:time><g:name>Start</g:name></g:trkpt>
          </g:trkseg></g:trk>
        </g:gpx>
        """

    /// Offsets, a time without a zone, seven and nine fraction digits, an empty time.
    static let times = """
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
          <trkpt lat="1" lon="2"><time>2024-06-01T12:00:00+02:00</time></trkpt>
          <trkpt lat="1" lon="2"><time>2024-06-01T05:30:00-05:30</time></trkpt>
          <trkpt lat="1" lon="2"><time>2024-06-01T12:00:00Z</time></trkpt>
          <trkpt lat="1" lon="2"><time>2024-06-01T12:00:00</time></trkpt>
          <trkpt lat="1" lon="2"><time>1901-12-13T20:45:52.2073437Z</time></trkpt>
          <trkpt lat="1" lon="2"><time> 2024-06-01T12:00:00.123456789Z
          </time></trkpt>
          <trkpt lat="1" lon="2"><time></time></trkpt>
          <trkpt lat="1" lon="2"/>
        </trkseg></trk></gpx>
        """

    /// Empty segments and tracks between full ones.
    static let emptySegments = """
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><trkseg/><trkseg><trkpt lat="1" lon="1"/><trkpt lat="1" lon="2"/></trkseg><trkseg></trkseg><trkseg><trkpt lat="1" lon="3"/></trkseg></trk>
          <trk><name>empty</name><trkseg></trkseg></trk>
          <trk></trk>
          <trk><trkseg><trkpt lat="2" lon="1"/></trkseg><trkpt lat="2" lon="2"/></trk>
        </gpx>
        """

    /// Waypoints and routes around a track, in file order.
    static let routesAndWaypoints = """
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="46.1" lon="7.1"><ele>1200</ele><time>2024-06-01T07:00:00Z</time><name>Hut</name><sym>Lodge</sym></wpt>
          <wpt lat="46.2" lon="7.2"><name><![CDATA[Peak & <summit>]]></name></wpt>
          <rte><name>Plan</name><rtept lat="46.1" lon="7.1"/><rtept lat="46.15" lon="7.15"><name>Col</name></rtept></rte>
          <rte></rte>
          <rte><rtept lat="46.3" lon="7.3"/></rte>
          <trk><trkseg><trkpt lat="46.1" lon="7.1"><time>2024-06-01T07:00:01Z</time></trkpt></trkseg></trk>
          <wpt lat="46.4" lon="7.4"/>
        </gpx>
        """

    /// GPSLogger's GPX 1.0 and 1.1 extras: src, sat, hdop, geoidheight, an extension with speed
    /// before them, an OsmAnd speed, comments and CDATA where elements are.
    static let extras = """
        <?xml version="1.0" encoding="UTF-8" ?><gpx version="1.0" creator="GPSLogger"><trk><name><![CDATA[day]]></name><trkseg>
        <trkpt lat="53.8633187" lon="10.7011097"><ele>54.5</ele><time>2025-06-16T22:00:09.154Z</time><src>network</src><sat>7</sat><hdop>1.9</hdop><geoidheight>-1.6</geoidheight></trkpt><!-- acc:30.0 -->
        <trkpt lat="10.758321212464024" lon="106.64234449272531"><ele>17.634344400269068</ele><time>2024-11-03T16:30:11.331+07:00</time><extensions><gpxtpx:TrackPointExtension xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><gpxtpx:speed>2.8</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions><geoidheight>-1.6</geoidheight></trkpt>
        <trkpt lat="37.1722103" lon="-3.55468"><ele>10<!-- metres -->66.4</ele><time>2024-04-21T10:19:55Z</time><extensions><osmand:speed xmlns:osmand="https://osmand.net">2.9</osmand:speed></extensions></trkpt>
        <trkpt lat="1" lon="1"><time>2024-04-21T10:19:56Z</time><speed>3</speed><extensions><speed>9</speed><course>90</course></extensions></trkpt>
        </trkseg></trk></gpx>
        """

    /// Wrong points among good ones: each is rejected where it is wrong, and reading goes on.
    static let rejections = """
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
          <trkpt lat="200" lon="8"><time>2024-06-01T08:00:00Z</time></trkpt>
          <trkpt lat="47"><time>2024-06-01T08:00:01Z</time></trkpt>
          <trkpt lat="north" lon="8"/>
          <trkpt lat="47" lon="8"><ele>12</ele><time>2024-13-01T08:00:03Z</time></trkpt>
          <trkpt lat="47" lon="8"><time>2024-02-30T08:00:04Z</time></trkpt>
          <trkpt lat="47" lon="8"><ele>high</ele><time>2024-06-01T08:00:05Z</time></trkpt>
          <trkpt lat="47" lon="8"><time>2024-06-01T08:00:06Z</time><course>400</course></trkpt>
          <trkpt lat="47" lon="8"><time>1718000000</time></trkpt>
          <trkpt lat="47.5" lon="8.5"><time>2024-06-01T08:00:08Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    /// Every document above, for the tests that must hold for all of them.
    static let all: [String] = [gpx11, gpx10WithoutNamespace, prefixed, times, emptySegments, routesAndWaypoints, extras, rejections]
}
