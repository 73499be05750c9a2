import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogSQLite
import TravelogServer
import TravelogStore

@Suite("The generic locations API and the read API")
struct LocationsRouteTests {
    static let batch = #"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z","horizontalAccuracy":5},"#
        + #"{"lat":52.501,"lon":13.401,"time":1709283660,"speed":1.5},"#
        + #"{"latitude":52.502,"longitude":13.402,"timestamp":"2024-03-01T09:02:00Z"}]"#

    @Test("a JSON batch is stored and read back as GeoJSON Points with properties.timestamp")
    func roundTrip() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(Self.batch)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Int])?["stored"] == 3)
            }
            try await client.execute(uri: "/api/v1/locations?from=2024-03-01T09:01:00Z&to=2024-03-01T10:00:00Z", method: .get,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .ok)
                let collection = try #require(response.body.json as? [String: Any])
                #expect(collection["type"] as? String == "FeatureCollection")
                let features = try #require(collection["features"] as? [[String: Any]])
                #expect(features.count == 2)
                let properties = features.compactMap { $0["properties"] as? [String: Any] }
                #expect(properties.map { $0["timestamp"] as? String } == ["2024-03-01T09:01:00Z", "2024-03-01T09:02:00Z"])
                let geometry = try #require(features.first?["geometry"] as? [String: Any])
                #expect(geometry["coordinates"] as? [Double] == [13.401, 52.501])
                // Without placeTime=true no zone is looked up.
                #expect(properties.allSatisfy { $0["timeZone"] == nil })
            }
            // With it, each fix names its place's zone (the page's list writes the place's time, as the journal).
            try await client.execute(uri: "/api/v1/locations?from=2024-03-01&placeTime=true", method: .get,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                let features = (response.body.json as? [String: Any])?["features"] as? [[String: Any]] ?? []
                #expect(features.count == 3)
                #expect(features.allSatisfy { ($0["properties"] as? [String: Any])?["timeZone"] as? String == "Europe/Berlin" })
            }
            try await client.execute(uri: "/api/v1/locations?placeTime=yes", method: .get,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("a wrong item is refused with its index and field; nothing of the batch is stored",
          arguments: [
            (#"[{"latitude":52,"longitude":13,"timestamp":"2024-03-01T09:00:00Z"},{"latitude":91,"longitude":13}]"#, "item 1"),
            (#"[{"latitude":52,"longitude":13},{"longitude":13}]"#, "missing latitude"),
            (#"[{"latitude":"north","longitude":13}]"#, "latitude 'north'"),
            (#"[{"latitude":52,"longitude":13,"timestamp":"soon"}]"#, "timestamp 'soon'"),
            (#"[{"latitude":52,"longitude":13,"altitude":1e308}]"#, "altitude"),
            (#"[{"latitude":52,"longitude":13,"timestamp":"9999-01-01T00:00:00Z"}]"#, "more than a day after now"),
            (#"[{"latitude":52,"longitude":13,"timestamp":"0000-01-01T00:00:00Z"}]"#, "item 0"),
            (#"[{"latitude":52,"longitude":13},"#, "unexpected end of input"),
            // The document bounds a longitude to -180…180: refused, not wrapped to -179 as a file's is.
            (#"[{"latitude":52,"longitude":13,"timestamp":"2024-03-01T09:00:00Z"},{"latitude":0,"longitude":181}]"#,
             "item 1 (line 1, column 68 (byte 67)): longitude 181.0 is outside [-180, 180]"),
            // A time the day after tomorrow, whatever today is (the document cannot state the bound).
            (#"[{"latitude":52,"longitude":13,"timestamp":\#(Int(Date().timeIntervalSince1970) + 2 * 86_400)}]"#,
             "more than a day after now"),
            // Features in an object that is not a FeatureCollection (schemathesis sent one without a type; its one
            // timed Point was stored): refused whole.
            (#"{"features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13,52]},"properties":{"timestamp":"2024-03-01T09:00:00Z"}}]}"#,
             "expected an object of type 'FeatureCollection' around the features, found an object without a type"),
            (#"{"type":"Feature","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13,52]},"properties":{"timestamp":"2024-03-01T09:00:00Z"}}]}"#,
             "found an object of type 'Feature'"),
          ])
    func rejections(body: String, expected: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(body)) { response in
                #expect(response.status == .badRequest)
                let message = try #require((response.body.json as? [String: String])?["error"])
                #expect(message.contains(expected), "\(message)")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
    }

    @Test("a GeoJSON FeatureCollection is accepted too")
    func geoJSON() async throws {
        let fixture = try await ServerFixture.make()
        let body = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"time":"2024-05-01T12:00:00Z"}}]}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations?device=script", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(body)) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try await fixture.app.store.device(named: "script", userID: fixture.ada.id) != nil)
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }

    @Test("nobody reads or writes another user's data")
    func isolation() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(Self.batch)) { #expect($0.status == .ok) }
            for path in ["/api/v1/locations", "/api/v1/latest", "/api/v1/path?zoom=10"] {
                try await client.execute(uri: path, method: .get, headers: Auth.bearer(fixture.bobToken)) { response in
                    #expect(response.status == .ok)
                    let features = (response.body.json as? [String: Any])?["features"] as? [Any]
                    #expect(features?.isEmpty == true, "\(path) shows bob ada's locations")
                }
            }
            try await client.execute(uri: "/api/v1/locations?device=phone", method: .get, headers: Auth.bearer(fixture.bobToken)) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.bearer(fixture.bobToken)) { response in
                let devices = try #require(response.body.json as? [[String: Any]])
                #expect(devices.map { $0["name"] as? String } == ["pixel"])
            }
            try await client.execute(uri: "/api/v1/stats", method: .get, headers: Auth.bearer(fixture.bobToken)) { response in
                let total = (response.body.json as? [String: Any])?["total"] as? [String: Any]
                #expect(total?["locations"] as? Int == 0)
            }
        }
        #expect(try await fixture.storedCount(fixture.bob) == 0)
    }

    @Test("path, latest, devices, stats and export answer for the range")
    func readRoutes() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(overlandBatch(count: 600))) { #expect($0.status == .ok) }
            let auth = Auth.basic("ada", ServerFixture.adaPassword)
            try await client.execute(uri: "/api/v1/path?zoom=10&from=2023-11-14&to=2023-11-15", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let properties = try #require((response.body.json as? [String: Any])?["properties"] as? [String: Any])
                #expect(properties["rawPointCount"] as? Int == 600)
                let drawn = try #require(properties["pointCount"] as? Int)
                #expect(drawn >= 2 && drawn < 600)  // a straight line simplifies to its ends
                let distance = try #require(properties["distanceMeters"] as? Double)
                #expect(distance > 300 && distance < 450)  // 599 steps of 1e-5° of longitude at 52.5° ≈ 405 m
            }
            try await client.execute(uri: "/api/v1/path?zoom=30", method: .get, headers: auth) { #expect($0.status == .badRequest) }
            // A point budget coarsens the path rather than sending every point; the distance stays.
            try await client.execute(uri: "/api/v1/path?zoom=22&maxPoints=50", method: .get, headers: auth) { response in
                let properties = try #require((response.body.json as? [String: Any])?["properties"] as? [String: Any])
                #expect(try #require(properties["pointCount"] as? Int) <= 50)
                #expect(properties["rawPointCount"] as? Int == 600)
                #expect(try #require(properties["distanceMeters"] as? Double) > 300)
            }
            try await client.execute(uri: "/api/v1/path?from=last-week", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
                #expect(response.body.text.contains("from 'last-week'"))
            }
            try await client.execute(uri: "/api/v1/latest", method: .get, headers: auth) { response in
                let features = try #require((response.body.json as? [String: Any])?["features"] as? [[String: Any]])
                #expect(features.count == 1)
                #expect((features.first?["properties"] as? [String: Any])?["timestamp"] as? String == "2023-11-14T22:23:19Z")
            }
            try await client.execute(uri: "/api/v1/stats?by=day&timezone=Europe/Berlin", method: .get, headers: auth) { response in
                let periods = try #require((response.body.json as? [String: Any])?["periods"] as? [[String: Any]])
                #expect(periods.map { $0["period"] as? String } == ["2023-11-14"])
            }
            try await client.execute(uri: "/api/v1/stats?timezone=Mars/Olympus", method: .get, headers: auth) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/export?format=gpx", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"travelog-all.gpx\"")
                #expect(response.body.text.components(separatedBy: "<trkpt").count - 1 == 600)
            }
            // Downloads are named after their range (issue 26), in the range's zone.
            for (query, name) in [("from=2023-11-14&to=2023-11-14", "travelog-2023-11-14.csv"),
                                  ("from=2023-11-01&to=2023-11-30&timezone=Europe/Berlin", "travelog-2023-11-01_2023-11-30.csv"),
                                  ("from=2023-11-01", "travelog-from-2023-11-01.csv"), ("to=2023-11-30", "travelog-until-2023-11-30.csv")] {
                try await client.execute(uri: "/api/v1/export?format=csv&" + query, method: .get, headers: auth) { response in
                    #expect(response.headers[.contentDisposition] == "attachment; filename=\"\(name)\"", "\(query)")
                }
            }
            try await client.execute(uri: "/api/v1/export?format=nmea", method: .get, headers: auth) { #expect($0.status == .badRequest) }
        }
    }

    @Test("an uploaded file is imported in one go; a broken one stores nothing and says why")
    func uploads() async throws {
        let fixture = try await ServerFixture.make()
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="47.1" lon="8.1"><time>2024-06-01T10:00:00Z</time></trkpt>
            <trkpt lat="47.2" lon="8.2"><time>2024-06-01T10:01:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/imports?device=garmin&filename=ride.gpx", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(gpx)) { response in
                #expect(response.status == .ok)
                let report = try #require(response.body.json as? [String: Any])
                #expect(report["format"] as? String == "gpx")
                #expect(report["imported"] as? Int == 2)
            }
            try await client.execute(uri: "/api/v1/imports?device=garmin", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword),
                                     body: ByteBuffer(String(gpx.dropLast(40)).replacingOccurrences(of: "47.1", with: "47.3"))) { response in
                #expect(response.status == .badRequest)
                #expect((response.body.json as? [String: Any])?["status"] as? String == "failed")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 2)
    }
}
