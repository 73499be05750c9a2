import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("CSVReader")
struct CSVReaderTests {
    /// Every record of `text`, read through chunks of `chunk` bytes and a 16-byte block.
    static func records(_ text: String, chunk: Int = .max) throws(FormatError) -> [FormatRecord] {
        var reader = CSVReader(source: MemoryByteSource(Array(text.utf8), maximumChunkBytes: chunk), blockSizeBytes: 16)
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(reader.bytesConsumed == text.utf8.count)
        return records
    }

    static func locations(_ records: [FormatRecord]) -> [Location] {
        records.compactMap { if case .point(let point) = $0 { point.position.location } else { nil } }
    }

    static func rejections(_ records: [FormatRecord]) -> [RecordRejection] {
        records.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
    }

    static func date(_ secondsSince1970: Double) -> Date { Date(timeIntervalSince1970: secondsSince1970) }

    static let gpsLogger = """
        time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,activity,battery
        2024-06-15T10:30:00.000Z,52.5200,13.4050,34.0,8,90,1.5,12,gps,walking,85
        2024-06-15T10:31:00.000Z,52.5210,13.4060,35.0,10,95,1.6,11,gps,walking,84

        """

    @Test("GPSLogger rows become fixes with every column in Travelog's units", arguments: [1, 2, 7, 1000])
    func gpsLoggerRows(chunk: Int) throws {
        let records = try Self.records(Self.gpsLogger, chunk: chunk)
        #expect(records.count == 2)
        let expected = Location(coordinate: try Coordinate(latitude: 52.52, longitude: 13.405), altitudeMeters: 34,
                                horizontalAccuracyMeters: 8, speedMetersPerSecond: 1.5, courseDegrees: 90,
                                timestamp: Self.date(1_718_447_400))
        #expect(records.first == .point(FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(expected))))
        #expect(Self.locations(records).last?.timestamp == Self.date(1_718_447_460))
    }

    @Test("GPSLogger's time_offset gives the phone's offset; an empty one falls back to time")
    func gpsLoggerTimeOffset() throws {
        let text = """
            time,lat,lon,timestamp_ms,time_offset
            2025-01-24T07:02:29.168Z,24.24,-11.84,1737702149168,2025-01-24T00:02:29.168-07:00
            2025-01-24T07:02:30.000Z,24.24,-11.84,1737702150000,
            """
        let locations = Self.locations(try Self.records(text))
        #expect(locations.map(\.utcOffsetSeconds) == [-25_200, nil])
        #expect(abs(locations[0].timestamp.timeIntervalSince1970 - 1_737_702_149.168) < 1e-6)  // Double resolution in 2025
        #expect(locations[1].timestamp == Self.date(1_737_702_150))
    }

    @Test("E7 integers are divided exactly and velocity is metres per second")
    func e7() throws {
        let text = "timestamp,latitudeE7,longitudeE7,accuracy,altitude,velocity\n2024-06-15T10:30:00Z,525200000,-134050000,8,34,1.5\n"
        let location = try #require(Self.locations(try Self.records(text)).first)
        #expect(location.coordinate.latitude == 52.52)
        #expect(location.coordinate.longitude == -13.405)
        #expect(location.speedMetersPerSecond == 1.5)
    }

    @Test("epoch seconds and milliseconds both read", arguments: ["1718444200", "1718444200000"])
    func epoch(time: String) throws {
        let text = "deviceid,lat,lon,timestamp\nphone1,52.52,13.405,\(time)\n"
        #expect(Self.locations(try Self.records(text)).map(\.timestamp) == [Self.date(1_718_444_200)])
    }

    @Test("speed, altitude and name columns in other units are converted", arguments: [
        ("speed_kmh", "36", 10.0), ("Speed (km/h)", "36", 10.0), ("vel", "36", 10.0),
        ("speed_knots", "10", Units.metersPerSecond(knots: 10)), ("mph", "10", Units.metersPerSecond(milesPerHour: 10)),
    ])
    func speedUnits(header: String, value: String, metersPerSecond: Double) throws {
        let text = "time,lat,lon,\(header),Altitude (ft)\n2024-06-15T10:30:00Z,1,2,\(value),1000\n"
        let location = try #require(Self.locations(try Self.records(text)).first)
        #expect(location.speedMetersPerSecond == metersPerSecond)
        #expect(location.altitudeMeters == Units.meters(feet: 1000))
    }

    @Test("Google Timeline CSV: a Visit row is a visit, an Activity row a point at its start")
    func googleTimeline() throws {
        let text = #"""
            "Type","Name","Address","Latitude","Longitude","Start Time","End Time","PlaceId"
            "Activity","UNKNOWN","","32.8954383","-117.1930364","2024-12-02T11:00:00.000-08:00","2024-12-02T13:00:00.000-08:00",""
            "Visit","Café ""Le Nord""","1 Main St,
            San Diego","32.8955442","-117.1929882","2024-12-02T11:02:12.000-08:00","2024-12-02T22:14:34.000-08:00","ChIJ123"
            "visit","","","32.9","-117.2","2024-12-03T08:00:00.000-08:00","",""

            """#
        for chunk in [1, 5, 1000] {
            let records = try Self.records(text, chunk: chunk)
            #expect(records.count == 3)
            let start = Location(coordinate: try Coordinate(latitude: 32.8954383, longitude: -117.1930364),
                                 timestamp: Self.date(1_733_166_000), utcOffsetSeconds: -28_800)
            #expect(records[0] == .point(FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(start))))
            #expect(records[1] == .visit(FormatVisit(arrival: Self.date(1_733_166_132), departure: Self.date(1_733_206_474),
                                                     coordinate: try Coordinate(latitude: 32.8955442, longitude: -117.1929882),
                                                     name: "Café \"Le Nord\"", address: "1 Main St,\nSan Diego",
                                                     placeIdentifier: "ChIJ123")))
            guard case .visit(let open) = records[2] else { Issue.record("not a visit: \(records[2])"); continue }
            #expect(open.departure == nil && open.name == nil)
        }
    }

    @Test("a WKT geom column and PostgreSQL times (Reitti's database rows)")
    func wkt() throws {
        let text = """
            id,accuracy_meters,activity_provided,timestamp,user_id,geom
            157224,10,,2025-06-01 13:02:03.000000 +00:00,1,POINT (10.70340326 53.86314754)
            157225,,,2025-06-01 13:02:04.5 +02:00,1,SRID=4326;POINT Z(10.7 53.8 12.5)
            """
        let locations = Self.locations(try Self.records(text))
        #expect(locations.count == 2)
        #expect(locations[0].coordinate == (try Coordinate(latitude: 53.86314754, longitude: 10.70340326)))
        #expect(locations[0].horizontalAccuracyMeters == 10)
        #expect(locations[0].timestamp == Self.date(1_748_782_923))
        #expect(locations[0].utcOffsetSeconds == 0)
        #expect(locations[1].altitudeMeters == 12.5 && locations[1].horizontalAccuracyMeters == -1)
        #expect(locations[1].utcOffsetSeconds == 7200)
    }

    @Test("semicolons with decimal commas, tabs, and date and time in two columns")
    func otherLayouts() throws {
        let semicolons = "user_id;tracked_at;latitude;longitude;elevation;accuracy\n1;2008-10-26T05:59:34Z;39,979984;116,324016;47;1\n"
        let first = try #require(Self.locations(try Self.records(semicolons)).first)
        #expect(first.coordinate == (try Coordinate(latitude: 39.979984, longitude: 116.324016)))
        #expect(first.timestamp == Self.date(1_225_000_774) && first.altitudeMeters == 47)

        let tabs = "Date\tTime\tLat\tLng\n2024-06-15\t10:30:00\t52.52\t13.405\n"
        #expect(Self.locations(try Self.records(tabs)).map(\.timestamp) == [Self.date(1_718_447_400)])
        let dateOnlyColumn = "date,lat,lon\n2024-06-15 10:30:00,52.52,13.405\n"
        #expect(Self.locations(try Self.records(dateOnlyColumn)).map(\.timestamp) == [Self.date(1_718_447_400)])
    }

    @Test("without a time column the points are untimed, named when a name column says so")
    func untimed() throws {
        let records = try Self.records("name,lat,lon,ele\nSummit,46.5,8.0,4158\n")
        #expect(records == [.point(FormatPoint(kind: .track(track: 0, segment: 0),
                                               position: .untimed(try Coordinate(latitude: 46.5, longitude: 8), altitudeMeters: 4158),
                                               name: "Summit"))])
    }

    // Header "time,lat,lon,accuracy,bearing\n" is 30 bytes, so line 2 starts at byte 30.
    @Test("a wrong row is rejected at its line and column and the rows after it are still read", arguments: [
        ("2024-06-15T10:30:00Z,200,13.4,5,90", SourcePosition(byteOffset: 51, line: 2, column: 22),
         RecordRejection.Reason.invalidCoordinate(.latitudeOutOfRange(200))),
        ("2024-02-30T10:30:00Z,52,13.4,5,90", SourcePosition(byteOffset: 30, line: 2, column: 1),
         .invalidTime("2024-02-30T10:30:00Z")),
        ("yesterday,52,13.4,5,90", SourcePosition(byteOffset: 30, line: 2, column: 1), .invalidTime("yesterday")),
        (",52,13.4,5,90", SourcePosition(byteOffset: 30, line: 2, column: 1), .missingField("time")),
        ("2024-06-15T10:30:00Z,,13.4,5,90", SourcePosition(byteOffset: 51, line: 2, column: 22), .missingField("lat")),
        ("2024-06-15T10:30:00Z,52,13.4,abc,90", SourcePosition(byteOffset: 59, line: 2, column: 30),
         .invalidValue(field: "accuracy", value: "abc")),
        ("2024-06-15T10:30:00Z,52,13.4,5,400", SourcePosition(byteOffset: 61, line: 2, column: 32),
         .invalidValue(field: "bearing", value: "400")),
        ("2024-06-15T10:30:00Z,52,13.4,5,90,extra,more", SourcePosition(byteOffset: 64, line: 2, column: 35),
         .wrongFieldCount(expected: 5, found: 7)),
        ("2024-06-15T10:30:00Z,52,13.4", SourcePosition(byteOffset: 58, line: 2, column: 29),
         .wrongFieldCount(expected: 5, found: 3)),
        ("2024-06-15T10:30:00Z,nan,13.4,5,90", SourcePosition(byteOffset: 51, line: 2, column: 22),
         .invalidValue(field: "lat", value: "nan")),
    ])
    func rejected(row: String, position: SourcePosition, reason: RecordRejection.Reason) throws {
        let text = "time,lat,lon,accuracy,bearing\n\(row)\n2024-06-15T10:31:00Z,52,13.4,5,360\n"
        for chunk in [1, 3, 1000] {
            let records = try Self.records(text, chunk: chunk)
            #expect(records.count == 2)
            #expect(Self.rejections(records) == [RecordRejection(position: position, reason: reason)])
            #expect(Self.locations(records).map(\.courseDegrees) == [0])  // 360° is north
        }
    }

    @Test("rows after a quoted line break keep their line numbers", arguments: [1, 1000])
    func lineNumbersAfterQuotedBreak(chunk: Int) throws {
        let text = "name,lat,lon\n\"two\r\nlines\",1,2\nbad,91,2\n"
        let records = try Self.records(text, chunk: chunk)
        #expect(records.count == 2)
        #expect(Self.rejections(records) == [RecordRejection(position: SourcePosition(byteOffset: 34, line: 4, column: 5),
                                                             reason: .invalidCoordinate(.latitudeOutOfRange(91)))])
        guard case .point(let point) = records.first else { Issue.record("not a point"); return }
        #expect(point.name == "two\nlines")
    }

    @Test("a visit that ends before it starts and a WKT that is not a point are rejected")
    func rejectedVisitAndGeometry() throws {
        let visit = "Type,Latitude,Longitude,Start Time,End Time\nVisit,1,2,2024-12-02T11:00:00Z,2024-12-02T10:00:00Z\n"
        #expect(Self.rejections(try Self.records(visit)) == [RecordRejection(
            position: SourcePosition(byteOffset: 75, line: 2, column: 32),
            reason: .invalidValue(field: "End Time", value: "2024-12-02T10:00:00Z"))])
        let geometry = "timestamp,geom\n2025-06-01 13:02:03,\"LINESTRING (1 2, 3 4)\"\n"
        #expect(Self.rejections(try Self.records(geometry)) == [RecordRejection(
            position: SourcePosition(byteOffset: 35, line: 2, column: 21),
            reason: .invalidValue(field: "geom", value: "LINESTRING (1 2, 3 4)"))])
    }

    @Test("a header without coordinate columns is an error naming what was expected")
    func headerWithoutCoordinates() {
        #expect(throws: FormatError.unexpected(SourcePosition(byteOffset: 0, line: 1, column: 1),
                                               expected: CSVColumnMap.expectedColumns,
                                               found: "the columns 'time', 'lat', 'elevation'")) {
            try Self.records("time,lat,elevation\n2024-06-15T10:30:00Z,1,2\n")
        }
    }

    @Test("an input without a header is truncated", arguments: ["", "\n\n  \n"])
    func noHeader(text: String) {
        #expect(throws: FormatError.truncated(SourcePosition(byteOffset: text.utf8.count, line: 1, column: 1),
                                              expected: "a header row naming the columns")) {
            try Self.records(text)
        }
    }

    @Test("a header alone is a file without records")
    func headerOnly() throws {
        #expect(try Self.records("time,lat,lon\n").isEmpty)
    }

    @Test("a quote left open at the end of the file is an error, not a rejection", arguments: [1, 1000])
    func unterminatedQuote(chunk: Int) {
        #expect(throws: FormatError.truncated(SourcePosition(byteOffset: 22, line: 3, column: 1),
                                              expected: "a closing quote for the field that opens here")) {
            try Self.records("name,lat,lon\nHome,1,2\n\"Work,3,4\n", chunk: chunk)
        }
    }

    @Test("header names are compared without case, spaces or punctuation")
    func columnNames() throws {
        #expect(CSVColumnMap.normalized("Start Time") == "starttime")
        #expect(CSVColumnMap.normalized("speed (km/h)") == "speedkmh")
        #expect(CSVColumnMap.normalized("latitudeE7") == "latitudee7")
        let map = try #require(CSVColumnMap(names: ["Time", "LAT", "Lng", "time_offset", "Altitude (ft)", "horizontal_accuracy"]))
        #expect(map.latitude == CSVColumnMap.ScaledColumn(index: 1, unit: .degrees))
        #expect(map.longitude == CSVColumnMap.ScaledColumn(index: 2, unit: .degrees))
        #expect(map.times == [3, 0])
        #expect(map.altitude == CSVColumnMap.ScaledColumn(index: 4, unit: .feet))
        #expect(map.horizontalAccuracy == 5)
        #expect(CSVColumnMap(names: ["lat", "time"]) == nil)
        #expect(CSVColumnMap(names: ["the_geom"])?.geometry == 0)
    }
}
