import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
@testable import TravelogAccounts
import TravelogServer
import TravelogStore

@Suite("OsmAnd, Traccar Client and GPSLogger")
struct PhoneAppRouteTests {
    @Test("Traccar Client's query, with the token as its device identifier: speed in knots")
    func traccarQuery() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/osmand?id=\(fixture.adaToken)&lat=52.5&lon=13.4&timestamp=1700000000&speed=10&bearing=45&altitude=30&accuracy=12&batt=80",
                                     method: .post) { #expect($0.status == .ok) }
        }
        let stored = try #require(try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id)).first)
        #expect(stored.deviceID == fixture.adaPhone.id)
        #expect(stored.location.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(stored.location.speedMetersPerSecond == Units.metersPerSecond(knots: 10))
        #expect(stored.location.courseDegrees == 45)
        #expect(stored.location.horizontalAccuracyMeters == 12)
    }

    @Test("OsmAnd's template (speed_unit=mps, epoch milliseconds) and an OsmAnd device: speed in m/s")
    func osmandTemplate() async throws {
        let fixture = try await ServerFixture.make(adaApp: .osmand)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/osmand?id=\(fixture.adaToken)&lat=52.5&lon=13.4&timestamp=1700000000000&hdop=1.2&altitude=30&speed=3.5&bearing=180",
                                     method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/osmand?id=\(fixture.adaToken)&speed_unit=kmh&lat=52.6&lon=13.4&timestamp=1700000060&speed=36",
                                     method: .get) { #expect($0.status == .ok) }
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(stored.map(\.location.speedMetersPerSecond) == [3.5, 10])
        #expect(stored.first?.source == .osmand)
    }

    @Test("a form body, and Traccar Client's JSON body, are read too")
    func formAndJSON() async throws {
        let fixture = try await ServerFixture.make()
        let json = #"{"device_id":"\#(fixture.adaToken)","location":{"timestamp":"2024-05-01T10:00:00.000Z","coords":{"latitude":48.85,"longitude":2.35,"accuracy":5,"speed":2,"heading":90,"altitude":40},"is_moving":true,"odometer":100,"battery":{"level":0.5,"is_charging":false},"activity":{"type":"walking"}}}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/osmand", method: .post,
                                     headers: [.contentType: "application/x-www-form-urlencoded"],
                                     body: ByteBuffer("id=\(fixture.adaToken)&lat=52.5&lon=13.4&timestamp=2024-05-01%2009%3A00%3A00")) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/osmand", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(json)) { #expect($0.status == .ok) }
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(stored.count == 2)
        #expect(stored.last?.location.speedMetersPerSecond == 2)  // the JSON body is in m/s
    }

    @Test("a wrong fix is set aside for the user with its field, and the app gets its 200; an unknown identifier is a 401",
          arguments: [
            ("lat=52.5&timestamp=1700000000", "lon"),
            ("lat=91&lon=13&timestamp=1700000000", "lat"),
            ("lat=52&lon=13&timestamp=tomorrow", "timestamp"),
            ("lat=52&lon=13&timestamp=253402300799", "time"),
            ("lat=52&lon=13&timestamp=1700000000&altitude=1e308", "altitude"),
          ])
    func setAside(query: String, field: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/osmand?id=\(fixture.adaToken)&\(query)", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/v1/osmand?id=unknown-device&lat=52&lon=13", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        let item = try #require(try await fixture.app.store.rejectedItems(userID: fixture.ada.id, limit: 5).first)
        #expect(item.reason.contains(field), "\(item.reason)")
        #expect(item.route == "osmand")
        #expect(!item.raw.contains(fixture.adaToken) || item.raw.contains("id="), "the raw request is kept as sent")
    }

    @Test("a report without a position (cell or Wi-Fi only) is answered 200 and stores and keeps nothing")
    func noFix() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/osmand?id=\(fixture.adaToken)&timestamp=1700000000&cell=262,1,1234,5678",
                                     method: .get) { #expect($0.status == .ok) }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 0)
    }

    @Test("GPSLogger's POST with the token in the form body is stored")
    func gpsloggerTokenInBody() async throws {
        let fixture = try await ServerFixture.make()
        let headers = HTTPFields().adding("Content-Type", "application/x-www-form-urlencoded")
        let body = "token=\(fixture.adaToken)&lat=52.5&lon=13.4&time=2024-03-01T09:00:00Z&spd=0&dir=0&acc=1"
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/gpslogger", method: .post, headers: headers, body: ByteBuffer(body)) { response in
                #expect(response.status == .ok)
            }
        }
        let fix = try #require(try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id)).first?.location)
        #expect(fix.speedMetersPerSecond == 0)
        #expect(fix.courseDegrees == 0)
        #expect(fix.horizontalAccuracyMeters == 1)
    }

    @Test("GPSLogger's ready-to-paste URL stores a fix; empty placeholders mean unknown")
    func gpsloggerURL() async throws {
        let fixture = try await ServerFixture.make()
        let setup = try #require(AppSetup.instructions(baseURL: "http://x", user: "ada", device: "phone",
                                                       token: fixture.adaToken, app: .gpslogger).first)
        var url = try #require(setup.settings.first?.1)
        for (placeholder, value) in [("%LAT", "52.5"), ("%LON", "13.4"), ("%TIME", "2024-05-01T10:00:00Z"), ("%ALT", "40"),
                                     ("%ACC", "7.5"), ("%SPD", "1.5"), ("%DIR", ""), ("%BATT", "55"), ("%ISCHARGING", "false"),
                                     ("%AID", "abc"), ("%PROV", "gps"), ("%HDOP", ""), ("%SAT", "9")] {
            url = url.replacingOccurrences(of: placeholder, with: value)
        }
        #expect(!url.contains("%"))
        let path = String(url.dropFirst("http://x".count))
        try await fixture.test { client in
            try await client.execute(uri: path, method: .get) { #expect($0.status == .ok) }
        }
        let stored = try #require(try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id)).first)
        #expect(stored.deviceID == fixture.adaPhone.id)
        #expect(stored.location.horizontalAccuracyMeters == 7.5)
        #expect(stored.location.courseDegrees < 0)
        #expect(stored.source == .gpslogger)
    }
}
