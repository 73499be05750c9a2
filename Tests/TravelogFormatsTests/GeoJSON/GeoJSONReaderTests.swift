import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GeoJSONReader: shapes")
struct GeoJSONReaderTests {
    @Test("Point features with a time are fixes, the time in any of the forms apps write", arguments: [
        // (properties, seconds since 1970, UTC offset written)
        (#""timestamp": "2024-11-03T16:30:11.331+07:00""#, 1_730_626_211.331, 25_200 as Int?),
        (#""time": "2015-10-01T08:00:00-0700""#, 1_443_711_600, -25_200),
        (#""timestamp": 1609459201"#, 1_609_459_201, nil),
        (#""timestamp": 1730626211331"#, 1_730_626_211.331, nil),
        (#""timestamp": "1609459201""#, 1_609_459_201, nil),
        (#""timestamp": 1609459201.5"#, 1_609_459_201.5, nil),
        (#""datetime": "2021-01-01 00:00:01""#, 1_609_459_201, nil),
        (#""date": "2021-01-01T00:00:01Z""#, 1_609_459_201, nil),
        (#""time_long": 1730626211331"#, 1_730_626_211.331, nil),
        // The best-ranked key wins whatever the order: `timestamp` before `time` before `time_long`.
        (#""time_long": 1, "time": "2021-01-01T00:00:01Z", "timestamp": null"#, 1_609_459_201, nil),
    ])
    func pointTimes(properties: String, seconds: Double, offset: Int?) throws {
        let text = #"{"type":"Feature","properties":{"# + properties + #"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        let reading = try GeoJSONReading(text)
        let location = try #require(reading.points.first?.position.location)
        #expect(reading.records.count == 1)
        #expect(abs(location.timestamp.timeIntervalSince1970 - seconds) < 1e-6)  // Date holds a Double: 1 µs
        #expect(location.utcOffsetSeconds == offset)
        #expect(location.coordinate == (try Coordinate(latitude: 52.5, longitude: 13.4)))
    }

    @Test("a Point feature takes altitude, accuracies, speed and course from its properties")
    func pointProperties() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"properties":{"speed":1.2,"course":90,"accuracy":4.5,"vertical_accuracy":3,"altitude":17.5,
              "speed_accuracy":0.5,"course_accuracy":10,"timestamp":"2021-01-01T00:00:01Z"},
             "geometry":{"coordinates":[106.6,10.7],"type":"Point"},"type":"Feature"},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[106.6,10.7,20]},
             "properties":{"elevation":17.5,"horizontal_accuracy":4,"bearing":45,"timestamp":1609459202}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[106.6,10.7]},
             "properties":{"ele":"12.5","heading":"270","timestamp":1609459203,"speed":-1}}
            ]}
            """
        let coordinate = try Coordinate(latitude: 10.7, longitude: 106.6)
        let expected: [Location] = [
            Location(coordinate: coordinate, altitudeMeters: 17.5, horizontalAccuracyMeters: 4.5, verticalAccuracyMeters: 3,
                     speedMetersPerSecond: 1.2, speedAccuracyMetersPerSecond: 0.5, courseDegrees: 90,
                     courseAccuracyDegrees: 10, timestamp: Date(timeIntervalSince1970: 1_609_459_201)),
            Location(coordinate: coordinate, altitudeMeters: 20, horizontalAccuracyMeters: 4, courseDegrees: 45,
                     timestamp: Date(timeIntervalSince1970: 1_609_459_202)),
            Location(coordinate: coordinate, altitudeMeters: 12.5, courseDegrees: 270,
                     timestamp: Date(timeIntervalSince1970: 1_609_459_203)),
        ]
        #expect(try GeoJSONReading(text).records == expected.map { .trackPoint(0, 0, $0) })
    }

    @Test("a Point without a time is a named waypoint; a MultiPoint without times gives waypoints")
    func waypoints() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3]},"properties":{"name":"Camp"}},
            {"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[4,5],[6,7]]},"properties":null}
            ]}
            """
        #expect(try GeoJSONReading(text).records == [
            try .untimed(.waypoint, 2, 1, altitude: 3, name: "Camp"),
            try .untimed(.waypoint, 5, 4),
            try .untimed(.waypoint, 7, 6),
        ])
    }

    @Test("a LineString is a track timed by coordTimes, and untimed without them")
    func lineStrings() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"coordTimes":["2021-01-01T00:00:00Z","2021-01-01T00:00:10Z"]},
             "geometry":{"type":"LineString","coordinates":[[10,50,100],[10.001,50.001,101]]}},
            {"type":"Feature","properties":{"time":"2021-01-01T00:00:00Z"},
             "geometry":{"type":"LineString","coordinates":[[11,51],[11.001,51.001]]}}
            ]}
            """
        #expect(try GeoJSONReading(text).records == [
            .trackPoint(0, 0, try simpleFix(50, 10, altitude: 100, 1_609_459_200)),
            .trackPoint(0, 0, try simpleFix(50.001, 10.001, altitude: 101, 1_609_459_210)),
            try .untimed(.track(track: 1, segment: 0), 51, 11),
            try .untimed(.track(track: 1, segment: 0), 51.001, 11.001),
        ])
    }

    @Test("a MultiLineString is one track with a segment per line; nested and flat per-position times both work", arguments: [
        #""coordTimes":[[1609459200,1609459201],[1609459300]]"#,
        #""times":[1609459200,1609459201,1609459300]"#,
        #""coordinateProperties":{"heart":[1,2,3],"times":[[1609459200,1609459201],[1609459300]]}"#,
    ])
    func multiLineStrings(times: String) throws {
        let text = #"{"type":"Feature","properties":{"# + times
            + #"},"geometry":{"type":"MultiLineString","coordinates":[[[10,50],[10,50.1]],[],[[10,50.2]]]}}"#
        #expect(try GeoJSONReading(text).records == [
            .trackPoint(0, 0, try simpleFix(50, 10, 1_609_459_200)),
            .trackPoint(0, 0, try simpleFix(50.1, 10, 1_609_459_201)),
            .trackPoint(0, 1, try simpleFix(50.2, 10, 1_609_459_300)),
        ])
    }

    @Test("a MultiPoint with a time per position is a track")
    func timedMultiPoint() throws {
        let text = #"{"type":"MultiPoint","coordinates":[[10,50],[10,50.1]]}"#
        #expect(try GeoJSONReading(text).records == [try .untimed(.waypoint, 50, 10), try .untimed(.waypoint, 50.1, 10)])
        let timed = #"{"type":"Feature","properties":{"times":[1609459200,null]},"geometry":{"type":"MultiPoint","coordinates":[[10,50],[10,50.1]]}}"#
        #expect(try GeoJSONReading(timed).records == [
            .trackPoint(0, 0, try simpleFix(50, 10, 1_609_459_200)),
            try .untimed(.track(track: 0, segment: 0), 50.1, 10),
        ])
    }

    @Test("Polygons and MultiPolygons are areas: skipped and counted, not read")
    func areas() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"time":1609459200},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}},
            {"type":"Feature","properties":{},"geometry":null},
            {"type":"Feature","properties":{}}
            ]}
            """
        let reading = try GeoJSONReading(text)
        #expect(reading.records.isEmpty)
        #expect(reading.skipped == [.area("Polygon"): 1, .area("MultiPolygon"): 1, .noGeometry: 2])
    }

    @Test("a GeometryCollection gives its members in order")
    func geometryCollection() throws {
        let text = """
            {"type":"Feature","properties":{"name":"Trip"},"geometry":{"type":"GeometryCollection","geometries":[
            {"type":"Point","coordinates":[1,2]},
            {"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},
            {"type":"LineString","coordinates":[[3,4],[5,6]]}]}}
            """
        let reading = try GeoJSONReading(text)
        #expect(reading.records == [
            try .untimed(.waypoint, 2, 1, name: "Trip"),
            try .untimed(.track(track: 0, segment: 0), 4, 3),
            try .untimed(.track(track: 0, segment: 0), 6, 5),
        ])
        #expect(reading.skipped == [.area("Polygon"): 1])
    }

    @Test("members come in any order: features before type, geometry before properties, type last")
    func memberOrder() throws {
        let text = """
            {"features":[{"geometry":{"coordinates":[[10,50],[10,50.1]],"type":"LineString"},
            "properties":{"coordTimes":[1609459200,1609459201]},"type":"Feature"}],"bbox":[0,0,1,1],"type":"FeatureCollection"}
            """
        #expect(try GeoJSONReading(text).records == [
            .trackPoint(0, 0, try simpleFix(50, 10, 1_609_459_200)),
            .trackPoint(0, 0, try simpleFix(50.1, 10, 1_609_459_201)),
        ])
    }

    @Test("a bare geometry, a single Feature, and a top-level array of Features are documents too")
    func documentShapes() throws {
        #expect(try GeoJSONReading(#"{"coordinates":[[10,50],[11,51]],"type":"LineString"}"#).records == [
            try .untimed(.track(track: 0, segment: 0), 50, 10), try .untimed(.track(track: 0, segment: 0), 51, 11),
        ])
        #expect(try GeoJSONReading(#"{"type":"Point","coordinates":[10,50]}"#).records == [try .untimed(.waypoint, 50, 10)])
        let array = #"[{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"time":1609459200}},{"type":"Point","coordinates":[11,51]}]"#
        #expect(try GeoJSONReading(array).records == [
            .trackPoint(0, 0, try simpleFix(50, 10, 1_609_459_200)), try .untimed(.waypoint, 51, 11),
        ])
        #expect(try GeoJSONReading(#"{"type":"FeatureCollection","features":[]}"#).records.isEmpty)
        #expect(try GeoJSONReading("\u{FEFF} {\"type\":\"FeatureCollection\"} \n").records.isEmpty)
    }

    @Test("coordinates written as strings are numbers (Dawarich's export)")
    func stringCoordinates() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":["0.1","0.2"]},"properties":{"timestamp":1609459201,"altitude":"1"}}]}"#
        #expect(try GeoJSONReading(text).records == [.trackPoint(0, 0, try simpleFix(0.2, 0.1, altitude: 1, 1_609_459_201))])
    }

    @Test("a run of timed Points is one track; a line ends it and the next Points start another")
    func trackNumbering() throws {
        let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"time":1609459200}}"#
        let line = #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[10,50]]},"properties":{}}"#
        let text = #"{"type":"FeatureCollection","features":["# + [point, point, line, point].joined(separator: ",") + "]}"
        let kinds = try GeoJSONReading(text).points.map(\.kind)
        #expect(kinds == [.track(track: 0, segment: 0), .track(track: 0, segment: 0), .track(track: 1, segment: 0),
                          .track(track: 2, segment: 0)])
    }
}
