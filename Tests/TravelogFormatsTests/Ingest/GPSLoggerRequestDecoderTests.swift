import Foundation
import Testing
import TravelogCore
import TravelogFormats

/// Requests as GPSLogger sends them once its placeholders are substituted (written by hand).
@Suite("GPSLoggerRequestDecoder: GPSLogger's custom URL")
struct GPSLoggerRequestDecoderTests {
    static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// `queryTemplate` with each placeholder replaced as GPSLogger would.
    static func substituted(_ values: [String: String]) -> String {
        var text = GPSLoggerRequestDecoder.queryTemplate
        for (placeholder, value) in values { text = text.replacingOccurrences(of: placeholder, with: value) }
        return text
    }

    static let full = substituted([
        "%LAT": "51.507351", "%LON": "-0.127758", "%TIME": "2024-06-15T10:30:00.250Z", "%ALT": "45.3",
        "%ACC": "6.0", "%SPD": "2.5", "%DIR": "123.4", "%BATT": "76", "%ISCHARGING": "false",
        "%AID": "9774d56d682e549c", "%PROV": "gps", "%HDOP": "0.8", "%SAT": "11",
    ])

    @Test("the template names one parameter per placeholder, each once")
    func template() {
        let placeholders = ["%LAT", "%LON", "%TIME", "%ALT", "%ACC", "%SPD", "%DIR", "%BATT", "%ISCHARGING",
                            "%AID", "%PROV", "%HDOP", "%SAT"]
        for placeholder in placeholders {
            #expect(GPSLoggerRequestDecoder.queryTemplate.components(separatedBy: placeholder).count == 2, "\(placeholder)")
        }
        #expect(GPSLoggerRequestDecoder.urlTemplate(endpoint: "https://t.example/ingest/gpslogger")
            == "https://t.example/ingest/gpslogger?" + GPSLoggerRequestDecoder.queryTemplate)
    }

    @Test("a full GET query: speed in m/s, the Android ID as the device, provider and satellites kept")
    func fullQuery() throws {
        let ingested = try GPSLoggerRequestDecoder.decode(FormParameters(query: Self.full), receivedAt: Self.receivedAt)
        #expect(ingested == IngestedLocation(
            deviceIdentifier: "9774d56d682e549c",
            location: Location(coordinate: try Coordinate(latitude: 51.507351, longitude: -0.127758), altitudeMeters: 45.3,
                               horizontalAccuracyMeters: 6, speedMetersPerSecond: 2.5, courseDegrees: 123.4,
                               timestamp: Date(timeIntervalSince1970: 1_718_447_400.25)),
            batteryPercent: 76, isCharging: false, horizontalDilutionOfPrecision: 0.8,
            attributes: ["aid": "9774d56d682e549c", "prov": "gps", "sat": "11"]))
    }

    @Test("the same parameters as a POST form body")
    func formBody() throws {
        let ingested = try GPSLoggerRequestDecoder.decode(query: "", contentType: "application/x-www-form-urlencoded",
                                                          body: Array(Self.full.utf8), receivedAt: Self.receivedAt)
        #expect(ingested.location.coordinate == (try Coordinate(latitude: 51.507351, longitude: -0.127758)))
        #expect(ingested.deviceIdentifier == "9774d56d682e549c")
    }

    @Test("empty values are unknown: a network fix without altitude, speed, course, HDOP or time")
    func emptyValues() throws {
        let query = Self.substituted([
            "%LAT": "51.5", "%LON": "-0.12", "%TIME": "", "%ALT": "", "%ACC": "24.0", "%SPD": "", "%DIR": "",
            "%BATT": "", "%ISCHARGING": "", "%AID": "a1", "%PROV": "network", "%HDOP": "", "%SAT": "",
        ])
        let ingested = try GPSLoggerRequestDecoder.decode(FormParameters(query: query), receivedAt: Self.receivedAt)
        #expect(ingested.location == Location(coordinate: try Coordinate(latitude: 51.5, longitude: -0.12),
                                              horizontalAccuracyMeters: 24, timestamp: Self.receivedAt))
        #expect(ingested.batteryPercent == nil)
        #expect(ingested.isCharging == nil)
        #expect(ingested.attributes == ["aid": "a1", "prov": "network"])
    }

    @Test("device overrides aid, aid overrides ser; timestamp (epoch seconds) is used when time is absent")
    func deviceAndTime() throws {
        let named = try GPSLoggerRequestDecoder.decode(
            FormParameters(query: "lat=1&lon=2&ser=SER1&aid=AID1&device=my+phone&timestamp=1718447400"), receivedAt: Self.receivedAt)
        #expect(named.deviceIdentifier == "my phone")
        #expect(named.location.timestamp == Date(timeIntervalSince1970: 1_718_447_400))
        let serial = try GPSLoggerRequestDecoder.decode(FormParameters(query: "lat=1&lon=2&ser=SER1"), receivedAt: Self.receivedAt)
        #expect(serial.deviceIdentifier == "SER1")
        let both = try GPSLoggerRequestDecoder.decode(
            FormParameters(query: "aid=a&lat=1&lon=2&timestamp=1718447400&time=2024-06-15T12:30:00.5%2B02:00"),
            receivedAt: Self.receivedAt)
        #expect(both.location.timestamp == Date(timeIntervalSince1970: 1_718_447_400.5))  // time wins: it has the fraction
        #expect(both.location.utcOffsetSeconds == 7200)
    }

    @Test("rejections name the field", arguments: [
        ("lat=1&lon=2", IngestError.missingField("device")),
        ("aid=a&lon=2", .missingField("lat")),
        ("aid=a&lat=1&lon=", .missingField("lon")),
        ("aid=a&lat=91&lon=2", .outOfRange(field: "lat", value: 91)),
        ("aid=a&lat=1&lon=2&spd=1,5", .invalidNumber(field: "spd", value: "1,5")),
        ("aid=a&lat=1&lon=2&batt=150", .outOfRange(field: "batt", value: 150)),
        ("aid=a&lat=1&lon=2&ischarging=%ISCHARGING", .malformedEncoding(offset: 29)),
        ("aid=a&lat=1&lon=2&ischarging=no", .invalidBoolean(field: "ischarging", value: "no")),
        ("aid=a&lat=1&lon=2&time=15.06.2024",
         .invalidTimestamp(field: "time", value: "15.06.2024", reason: .unexpected(atByte: 2, expected: "a four-digit year"))),
    ])
    func rejections(query: String, error: IngestError) {
        #expect(throws: error) { try GPSLoggerRequestDecoder.decode(FormParameters(query: query), receivedAt: Self.receivedAt) }
    }
}
