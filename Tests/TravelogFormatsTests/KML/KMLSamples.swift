/// Small KML documents, one per shape location history takes in KML.
enum KMLSamples {
    /// A `gx:Track` as Google Earth and GPSBabel write it: every `when`, then every `gx:coord`.
    static let groupedTrack = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document><name>Doc</name><Folder><name>Tracks</name>
          <Placemark>
            <name>Ride</name>
            <LookAt><gx:TimeStamp><when>1999-01-01T00:00:00Z</when></gx:TimeStamp><longitude>8</longitude><latitude>47</latitude></LookAt>
            <gx:Track>
              <altitudeMode>absolute</altitudeMode>
              <when>2024-01-20T08:00:00Z</when>
              <when>2024-01-20T09:01:00+01:00</when>
              <when>2024-01-20T08:02:00.5Z</when>
              <gx:coord>-122.0841 37.4220 10</gx:coord>
              <gx:coord>-122.0851 37.4230 12.5</gx:coord>
              <gx:coord>-122.0861	37.4240</gx:coord>
              <gx:angles>45 0 0</gx:angles>
            </gx:Track>
          </Placemark>
        </Folder></Document></kml>
        """

    /// GPSBabel's `<when/>` for points without a time, and Google's empty `gx:coord`, which is
    /// dropped with its `when`.
    static let emptyEntries = """
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
          <when>2007-07-27T05:24:05Z</when><when/><when>2007-07-27T05:30:00Z</when><when></when>
          <gx:coord>-86.844140 35.836146</gx:coord><gx:coord>-86.843587 35.834859</gx:coord><gx:coord></gx:coord><gx:coord>-86.843869 35.835508</gx:coord>
        </gx:Track></Placemark></kml>
        """

    /// A `gx:MultiTrack` (one track, a segment per `gx:Track`) interleaved as Google's location
    /// history and Travelog write it, then a second Placemark's track.
    static let multiTrack = """
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
        <Placemark><gx:MultiTrack>
          <gx:Track><when>2024-01-01T00:00:00Z</when><gx:coord>1 2 3</gx:coord><when>2024-01-01T00:00:01Z</when><gx:coord>1.5 2.5</gx:coord></gx:Track>
          <gx:Track></gx:Track>
          <gx:Track><when>2024-01-01T01:00:00Z</when><gx:coord>4 5 6</gx:coord></gx:Track>
        </gx:MultiTrack></Placemark>
        <Placemark><name>no geometry</name></Placemark>
        <Placemark><gx:Track><when>2024-01-02T00:00:00Z</when><gx:coord>7 8</gx:coord></gx:Track></Placemark>
        </Document></kml>
        """

    /// LineStrings: white space of every kind between tuples, altitudes present and absent, a
    /// space after a comma; a Polygon whose ring is not a track.
    static let lineStrings = """
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
          <Placemark><name>Path</name><TimeStamp><when>2024-01-16T10:00:00Z</when></TimeStamp>
            <LineString><tessellate>1</tessellate><coordinates>
              -122.0841,37.4220,10 -122.0851,37.4230
        \t-122.0861,37.4240,14\r\n   -122.0871, 37.4250,16     -122.0881 ,37.4260,
            </coordinates></LineString>
          </Placemark>
          <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
          <Placemark><MultiGeometry>
            <LineString><coordinates>1,1 2,2</coordinates></LineString>
            <LineString><coordinates>   </coordinates></LineString>
            <LineString><coordinates>3,3</coordinates></LineString>
          </MultiGeometry></Placemark>
        </Document></kml>
        """

    /// Point Placemarks: a TimeStamp before or after the geometry, a date without a time, none;
    /// Points with a LineString in one MultiGeometry.
    static let points = """
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
          <Placemark><name>Location 1</name><TimeStamp><when>2024-01-15T12:00:00Z</when></TimeStamp>
            <Point><coordinates>-122.0841,37.4220,10</coordinates></Point></Placemark>
          <Placemark><name>After</name><Point><coordinates> -122.0851,37.4230 </coordinates></Point>
            <TimeStamp><when>2024-01-15T13:00:00-08:00</when></TimeStamp></Placemark>
          <Placemark><name>A day</name><TimeStamp><when>2024-01-15</when></TimeStamp><Point><coordinates>1,2</coordinates></Point></Placemark>
          <Placemark><Point><coordinates>3,4,5</coordinates></Point></Placemark>
          <Placemark><name>Mixed</name><TimeStamp><when>2024-01-18T15:00:00Z</when></TimeStamp><MultiGeometry>
            <Point><coordinates>5,6</coordinates></Point>
            <LineString><coordinates>7,8 9,10</coordinates></LineString>
            <Point><coordinates>11,12</coordinates></Point>
          </MultiGeometry></Placemark>
        </Document></kml>
        """

    /// Wrong values among good ones.
    static let rejections = """
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
        <Placemark><gx:Track>
          <when>2024-01-20T08:00:00Z</when>
          <when>2024-01-20T25:00:00Z</when>
          <when>2024-01-20T08:00:02Z</when>
          <when>2024-01-20T08:00:03Z</when>
          <when>2024-01-20T08:00:04Z</when>
          <gx:coord>1 2 3</gx:coord>
          <gx:coord>1 3 3</gx:coord>
          <gx:coord>1 200 3</gx:coord>
          <gx:coord>east north</gx:coord>
        </gx:Track></Placemark>
        <Placemark><LineString><coordinates>
            8,47 8,200
            8;47 8,47,1,2
            9,48
        </coordinates></LineString></Placemark>
        <Placemark><TimeStamp><when>yesterday</when></TimeStamp><Point><coordinates>1,2</coordinates></Point></Placemark>
        <Placemark><gx:Track><gx:coord>5 6</gx:coord></gx:Track></Placemark>
        </Document></kml>
        """

    static let all: [String] = [groupedTrack, emptyEntries, multiTrack, lineStrings, points, rejections]
}
