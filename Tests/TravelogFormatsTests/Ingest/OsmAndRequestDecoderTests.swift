import Foundation
import Testing
import TravelogCore
import TravelogFormats

/// Hand-written requests in the shapes Traccar Client and the OsmAnd app send.
@Suite("OsmAndRequestDecoder: query and form parameters")
struct OsmAndRequestDecoderTests {
    static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    static func decode(_ query: String, _ decoder: OsmAndRequestDecoder = .traccarClient) throws(IngestError) -> IngestedLocation {
        try decoder.decode(FormParameters(query: query), receivedAt: receivedAt)
    }

    @Test("a Traccar Client query: every known field, speed in knots, battery and charging")
    func traccarClientQuery() throws {
        let ingested = try Self.decode(
            "id=phone-7&timestamp=1718443800&lat=52.520008&lon=13.404954&speed=10&bearing=271.5"
            + "&altitude=34.2&accuracy=12.5&batt=87.0&charge=true&hdop=0.9")
        #expect(ingested == IngestedLocation(
            deviceIdentifier: "phone-7",
            location: Location(coordinate: try Coordinate(latitude: 52.520008, longitude: 13.404954), altitudeMeters: 34.2,
                               horizontalAccuracyMeters: 12.5, speedMetersPerSecond: 10.0 * 1852 / 3600, courseDegrees: 271.5,
                               timestamp: Date(timeIntervalSince1970: 1_718_443_800)),
            batteryPercent: 87, isCharging: true, horizontalDilutionOfPrecision: 0.9))
    }

    @Test("speed is converted with the exact factors of Units", arguments: [
        (SpeedUnit.knots, 1.0, 1852.0 / 3600), (.knots, 1.943844, 1.943844 * 1852 / 3600),
        (.metersPerSecond, 3.25, 3.25), (.kilometersPerHour, 36, 10),
    ])
    func speedUnits(unit: SpeedUnit, written: Double, metersPerSecond: Double) throws {
        let ingested = try Self.decode("id=1&lat=1&lon=2&speed=\(written)", OsmAndRequestDecoder(speedUnit: unit))
        #expect(ingested.location.speedMetersPerSecond == metersPerSecond)
        #expect(unit.metersPerSecond(written) == metersPerSecond)
    }

    @Test("the OsmAnd app's template: epoch milliseconds, speed in m/s, bearing")
    func osmAndTemplate() throws {
        let ingested = try Self.decode("id=osmand&lat=48.85&lon=2.35&timestamp=1718443800123&hdop=5.0E-4&altitude=35&speed=1.5&bearing=90",
                                       .osmAnd)
        #expect(ingested.location.timestamp == Date(timeIntervalSince1970: 1_718_443_800.123))
        #expect(ingested.location.speedMetersPerSecond == 1.5)
        #expect(ingested.location.courseDegrees == 90)
        #expect(ingested.horizontalDilutionOfPrecision == 0.0005)
    }

    @Test("every timestamp form Traccar reads", arguments: [
        ("1377177267", 1_377_177_267.0, nil as Int?),
        ("2147483646", 2_147_483_646, nil),  // the largest epoch read as seconds
        ("2147483647", 2_147_483.647, nil),  // 2^31 − 1: milliseconds from here up
        ("1442068686579", 1_442_068_686.579, nil),
        ("2016-01-27T18%3A55%3A47Z", 1_453_920_947, nil),
        ("2016-01-27T20:55:47.250%2B02:00", 1_453_920_947.25, 7200),
        ("2014-06-04+09%3A10%3A11", 1_401_873_011, nil),  // no zone: UTC
    ])
    func timestamps(text: String, secondsSince1970: Double, offset: Int?) throws {
        let location = try Self.decode("id=1&lat=1&lon=2&timestamp=\(text)").location
        #expect(location.timestamp == Date(timeIntervalSince1970: secondsSince1970))
        #expect(location.utcOffsetSeconds == offset)
    }

    @Test("without a timestamp (or with an empty one) the fix is timed when it was received")
    func receivedAt() throws {
        #expect(try Self.decode("id=1&lat=1&lon=2").location.timestamp == Self.receivedAt)
        #expect(try Self.decode("id=1&lat=1&lon=2&timestamp=").location.timestamp == Self.receivedAt)
    }

    @Test("deviceid names the device too; location=lat,lon gives the position; heading the course")
    func alternativeNames() throws {
        let ingested = try Self.decode("deviceid=abc&location=-33.865,151.2094&heading=360")
        #expect(ingested.deviceIdentifier == "abc")
        #expect(ingested.location.coordinate == (try Coordinate(latitude: -33.865, longitude: 151.2094)))
        #expect(ingested.location.courseDegrees == 0)  // 360° is north
    }

    @Test("negative speed, course, accuracy and battery mean unknown")
    func negativesAreUnknown() throws {
        let ingested = try Self.decode("id=1&lat=1&lon=2&speed=-1&bearing=-1&accuracy=-1&batt=-1&hdop=-1")
        #expect(ingested.location.speedIfKnown == nil)
        #expect(ingested.location.courseIfKnown == nil)
        #expect(ingested.location.horizontalAccuracyIfValid == nil)
        #expect(ingested.batteryPercent == nil)
        #expect(ingested.horizontalDilutionOfPrecision == nil)
    }

    @Test("valid=false keeps the fix, flagged: isValidFix false and an invalid horizontal accuracy")
    func invalidFix() throws {
        let flagged = try Self.decode("id=1&lat=1&lon=2&accuracy=8&valid=false")
        #expect(!flagged.isValidFix)
        #expect(flagged.location.horizontalAccuracyIfValid == nil)
        let valid = try Self.decode("id=1&lat=1&lon=2&accuracy=8&valid=TRUE")
        #expect(valid.isValidFix)
        #expect(valid.location.horizontalAccuracyMeters == 8)
    }

    @Test("unknown parameters are kept as attributes, the last of a repeated name")
    func attributes() throws {
        let ingested = try Self.decode("id=1&lat=1&lon=2&driverUniqueId=d7&cell=257,02,16,2224&cell=257,02,16,2223,-90&ignition=true")
        #expect(ingested.attributes == ["driverUniqueId": "d7", "cell": "257,02,16,2223,-90", "ignition": "true"])
    }

    @Test("a form body is read after the query; a JSON content type switches to the JSON body")
    func requestShapes() throws {
        let form = try OsmAndRequestDecoder.traccarClient.decode(
            query: "?id=from-query", contentType: "application/x-www-form-urlencoded",
            body: Array("lat=10&lon=20&timestamp=1377177267".utf8), receivedAt: Self.receivedAt)
        #expect(form.deviceIdentifier == "from-query")
        #expect(form.location.coordinate == (try Coordinate(latitude: 10, longitude: 20)))
        let json = try OsmAndRequestDecoder.traccarClient.decode(
            query: "", contentType: "application/json; charset=utf-8",
            body: Array(#"{"device_id":"j","location":{"coords":{"latitude":1,"longitude":2}}}"#.utf8),
            receivedAt: Self.receivedAt)
        #expect(json.deviceIdentifier == "j")
    }

    @Test("rejections name the field and what was wrong", arguments: [
        ("lat=60&lon=30&timestamp=1377177267", IngestError.missingField("id")),
        ("id=&lat=60&lon=30", .missingField("id")),
        ("id=1&lon=30", .missingField("lat")),
        ("id=1&lat=60", .missingField("lon")),
        ("id=1&timestamp=1377177267&cell=257,02,16,2224", .missingField("lat")),  // no position: nothing to store
        ("id=1&lat=91&lon=30", .outOfRange(field: "lat", value: 91)),
        ("id=1&lat=-90.5&lon=30", .outOfRange(field: "lat", value: -90.5)),
        ("id=1&lat=60&lon=180.01", .outOfRange(field: "lon", value: 180.01)),
        ("id=1&lat=6O.1&lon=30", .invalidNumber(field: "lat", value: "6O.1")),
        ("id=1&lat=nan&lon=30", .invalidNumber(field: "lat", value: "nan")),
        ("id=1&lat=1e999&lon=30", .invalidNumber(field: "lat", value: "1e999")),
        ("id=1&location=60;30", .invalidNumber(field: "location", value: "60;30")),
        ("id=1&location=60,x", .invalidNumber(field: "location", value: "x")),
        ("id=1&lat=1&lon=2&speed=fast", .invalidNumber(field: "speed", value: "fast")),
        ("id=1&lat=1&lon=2&bearing=361", .outOfRange(field: "bearing", value: 361)),
        ("id=1&lat=1&lon=2&batt=101", .outOfRange(field: "batt", value: 101)),
        ("id=1&lat=1&lon=2&charge=maybe", .invalidBoolean(field: "charge", value: "maybe")),
        ("id=1&lat=1&lon=2&valid=yes", .invalidBoolean(field: "valid", value: "yes")),
        ("id=1&lat=1&lon=2&timestamp=2016-02-30T00:00:00Z",
         .invalidTimestamp(field: "timestamp", value: "2016-02-30T00:00:00Z", reason: .outOfRange(.day, value: 30))),
        ("id=1&lat=1&lon=2&timestamp=yesterday",
         .invalidTimestamp(field: "timestamp", value: "yesterday", reason: .unexpected(atByte: 0, expected: "a four-digit year"))),
        ("id=1&lat=1%2", .malformedEncoding(offset: 10)),
    ])
    func rejections(query: String, error: IngestError) {
        #expect(throws: error) { try Self.decode(query) }
    }

    @Test("the error texts say which field and what was expected")
    func descriptions() {
        #expect(IngestError.missingField("id").description == "the field 'id' is required")
        #expect(IngestError.outOfRange(field: "lat", value: 91).description == "the field 'lat' is out of range: 91.0")
        #expect(IngestError.invalidNumber(field: "lat", value: "abc").description
            == "the field 'lat' must be a decimal number, not 'abc'")
        #expect(IngestError.malformedEncoding(offset: 10).description.hasPrefix("malformed percent-encoding at byte 10"))
        let long = IngestError.invalidNumber(field: "x", value: String(repeating: "9z", count: 100)).description
        #expect(long.count < 140)
    }
}
