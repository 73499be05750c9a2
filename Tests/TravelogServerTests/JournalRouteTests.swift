import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogServer
import TravelogStore

@Suite("The journal API")
struct JournalRouteTests {
    /// Home in Berlin until 08:00, a walk, work until 12:00, a walk back, home: a fix a minute
    /// (time as ISO 8601, latitude, longitude).
    static func morning(start: Date = Date(timeIntervalSince1970: 1_717_221_600)) -> [(time: String, latitude: Double, longitude: Double)] {
        let home = (52.52, 13.405), work = (52.50, 13.45)  // from 2024-06-01T06:00Z
        let formatter = ISO8601DateFormatter()
        return (0..<(8 * 60)).map { minute in
            let t: Double, position: (Double, Double)
            switch minute {
            case ..<120: position = home
            case 120..<150: t = Double(minute - 120) / 30; position = (home.0 + (work.0 - home.0) * t, home.1 + (work.1 - home.1) * t)
            case 150..<360: position = work
            case 360..<390: t = Double(minute - 360) / 30; position = (work.0 + (home.0 - work.0) * t, work.1 + (home.1 - work.1) * t)
            default: position = home
            }
            return (formatter.string(from: start.addingTimeInterval(Double(minute) * 60)), position.0, position.1)
        }
    }

    /// The morning as the script API's array of plain objects.
    static func morningBody(start: Date = Date(timeIntervalSince1970: 1_717_221_600)) -> String {
        let items = morning(start: start).map { fix in
            #"{"latitude":\#(fix.latitude),"longitude":\#(fix.longitude),"timestamp":"\#(fix.time)","horizontalAccuracy":8}"#
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// Posts the morning with ada's token (three entries, two trips) and returns ada's entries.
    static func postMorning(_ client: some TestClientProtocol, _ fixture: ServerFixture) async throws -> [[String: Any]] {
        try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                 body: ByteBuffer(morningBody())) { #expect($0.status == .ok) }
        return try await entries(client, Auth.basic("ada", ServerFixture.adaPassword))
    }

    static func entries(_ client: some TestClientProtocol, _ headers: HTTPFields, query: String = "") async throws -> [[String: Any]] {
        try await client.execute(uri: "/api/v1/visits" + query, method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return try #require(response.body.json as? [[String: Any]])
        }
    }

    @Test("posted locations become journal entries with places, local times and trips; edits stick")
    func journalFromPostedLocations() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(Self.morningBody())) { #expect($0.status == .ok) }
            var entries = try await Self.entries(client, auth)
            #expect(entries.count == 3)
            #expect(entries.first?["place"] as? String == "Berlin, DE")
            #expect(entries.first?["timeZone"] as? String == "Europe/Berlin")
            #expect(entries.first?["localArrival"] as? String == "2024-06-01T08:00:00+02:00")
            #expect(entries.first?["arrival"] as? String == "2024-06-01T06:00:00Z")
            // The day is long past: the last stay ended at the last fix, it is not going on.
            #expect(entries.last?["departure"] as? String == "2024-06-01T13:59:00Z")
            let ids = entries.compactMap { $0["id"] as? Int }

            try await client.execute(uri: "/api/v1/trips", method: .get, headers: auth) { response in
                let trips = try #require(response.body.json as? [[String: Any]])
                #expect(trips.count == 2)
                #expect(trips.first?["mode"] as? String == "walking")
                let distance = try #require(trips.first?["distanceMeters"] as? Double)
                #expect(distance > 3000 && distance < 4500)  // ≈ 3.7 km between the two places
            }
            try await client.execute(uri: "/api/v1/whereabouts", method: .get, headers: auth) { response in
                let whereabouts = try #require(response.body.json as? [String: Any])
                let countries = try #require(whereabouts["countries"] as? [[String: Any]])
                #expect(countries.first?["code"] as? String == "DE")
                #expect(countries.first?["days"] as? Int == 1)
            }
            // Rename the first, delete the second, name the home place.
            try await client.execute(uri: "/api/v1/visits/\(ids[0])", method: .patch, headers: auth,
                                     body: ByteBuffer(#"{"title":"Breakfast"}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["place"] as? String == "Breakfast")
            }
            try await client.execute(uri: "/api/v1/visits/\(ids[1])", method: .delete, headers: auth) { #expect($0.status == .noContent) }
            let placeID = try #require(entries.last?["placeID"] as? Int)
            try await client.execute(uri: "/api/v1/places/\(placeID)", method: .patch, headers: auth,
                                     body: ByteBuffer(#"{"name":"Home"}"#)) { #expect($0.status == .ok) }
            // The whole morning again, as if re-sent: nothing changes, the decisions hold.
            try await client.execute(uri: "/api/v1/journal/process", method: .post, headers: auth) { #expect($0.status == .ok) }
            entries = try await Self.entries(client, auth)
            #expect(entries.map { $0["place"] as? String } == ["Breakfast", "Home"])
            #expect(try await Self.entries(client, auth, query: "?hidden=true").count == 3)
        }
    }

    @Test("edits need the person: a device token is refused, another user finds nothing")
    func editScope() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(Self.morningBody())) { #expect($0.status == .ok) }
            let id = try #require(try await Self.entries(client, Auth.basic("ada", ServerFixture.adaPassword)).first?["id"] as? Int)
            try await client.execute(uri: "/api/v1/visits/\(id)", method: .delete, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/visits/\(id)", method: .delete, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/visits/\(id)", method: .patch, headers: Auth.basic("bob", ServerFixture.bobPassword),
                                     body: ByteBuffer(#"{"title":"mine"}"#)) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: Auth.basic("ada", ServerFixture.adaPassword),
                                     body: ByteBuffer(#"{"ids":[\#(id)]}"#)) { #expect($0.status == .badRequest) }
            #expect(try await Self.entries(client, Auth.basic("bob", ServerFixture.bobPassword)).isEmpty)
        }
    }

    @Test("merging two entries shows one that lasts until the second ends")
    func merge() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(Self.morningBody())) { #expect($0.status == .ok) }
            let entries = try await Self.entries(client, auth)
            let ids = entries.compactMap { $0["id"] as? Int }
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: auth,
                                     body: ByteBuffer(#"{"ids":[\#(ids[0]),\#(ids[1])]}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["departure"] as? String == entries[1]["departure"] as? String)
            }
            #expect(try await Self.entries(client, auth).count == 2)
        }
    }

    @Test("offline geocoding answers by coordinate and by text")
    func geocoding() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.bearer(fixture.adaToken)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/geocode/reverse?lat=35.7&lon=139.7", method: .get, headers: auth) { response in
                let placemark = try #require(response.body.json as? [String: Any])
                #expect(placemark["name"] as? String == "Tokyo")
                #expect(placemark["timeZone"] as? String == "Asia/Tokyo")
                #expect(placemark["countryCode"] as? String == "JP")
            }
            try await client.execute(uri: "/api/v1/geocode/forward?q=Berlin,%20Germany", method: .get, headers: auth) { response in
                let results = try #require(response.body.json as? [[String: Any]])
                #expect(results.first?["name"] as? String == "Berlin")
            }
            try await client.execute(uri: "/api/v1/geocode/reverse?lat=95&lon=0", method: .get, headers: auth) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/geocode/reverse?lat=1&lon=1", method: .get) { #expect($0.status == .unauthorized) }
        }
    }
}

@Suite("Days in the local time of the place")
struct LocalDayTests {
    @Test("a fix in Tokyo at 16:00 UTC counts on the next Tokyo day, whatever zone the request names")
    func tokyoDay() async throws {
        let fixture = try await ServerFixture.make()
        let body = #"[{"latitude":35.69,"longitude":139.69,"timestamp":"2024-06-01T16:00:00Z"},"#
            + #"{"latitude":35.70,"longitude":139.70,"timestamp":"2024-06-01T16:30:00Z"},"#
            + #"{"latitude":52.52,"longitude":13.40,"timestamp":"2024-06-01T21:30:00Z"}]"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(body)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/stats?by=day&timezone=UTC", method: .get,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                let periods = try #require((response.body.json as? [String: Any])?["periods"] as? [[String: Any]])
                // Tokyo: 01:00 and 01:30 on 2 June; Berlin: 23:30 on 1 June (summer time).
                #expect(periods.map { $0["period"] as? String } == ["2024-06-01", "2024-06-02"])
                #expect(periods.map { $0["locations"] as? Int } == [1, 2])
            }
        }
    }
}
