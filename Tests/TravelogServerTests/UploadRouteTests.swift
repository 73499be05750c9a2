import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogServer
import TravelogStore
import TravelogTestSupport

@Suite("Uploads in every shape")
struct UploadRouteTests {
    static let gpx = """
        <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2024-05-01T10:00:00Z</time></trkpt>
        <trkpt lat="48.1001" lon="11.5001"><time>2024-05-01T10:00:05Z</time></trkpt>
        </trkseg></trk></gpx>
        """
    static let csv = "time,latitude,longitude\n2024-05-02T10:00:00Z,48.2,11.6\n2024-05-02T10:01:00Z,48.21,11.61\n2024-05-02T10:02:00Z,48.22,11.62\n"
    static let kml = """
        <?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document><Placemark><gx:Track><when>2024-05-03T08:00:00Z</when><when>2024-05-03T08:00:10Z</when>
        <gx:coord>11.5 48.1 500</gx:coord><gx:coord>11.6 48.2 510</gx:coord></gx:Track></Placemark></Document></kml>
        """

    static func multipart(_ files: [(name: String, text: String)], boundary: String = "----travelog-test-7MA4YWxk",
                          device: String? = nil) -> (HTTPFields, ByteBuffer) {
        var body = ""
        if let device {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"device\"\r\n\r\n\(device)\r\n"
        }
        for file in files {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n\(file.text)\r\n"
        }
        body += "--\(boundary)--\r\n"
        var headers = Auth.basic("ada", ServerFixture.adaPassword)
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return (headers, ByteBuffer(body))
    }

    @Test("curl -F with one file, and a browser form with two files and a device field")
    func multipart() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let (headers, body) = Self.multipart([("ride.gpx", Self.gpx)])
            try await client.execute(uri: "/api/v1/imports", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .ok, "\(response.body.text)")
                let report = try #require(response.body.json as? [String: Any])
                #expect(report["imported"] as? Int == 2)
                #expect(report["file"] as? String == "ride.gpx")
            }
            let (two, both) = Self.multipart([("a.gpx", Self.gpx), ("b.csv", Self.csv)], device: "watch")
            try await client.execute(uri: "/api/v1/imports", method: .post, headers: two, body: both) { response in
                #expect(response.status == .ok, "\(response.body.text)")
                let answer = try #require(response.body.json as? [String: Any])
                let files = try #require(answer["files"] as? [[String: Any]])
                #expect(files.map { $0["imported"] as? Int } == [2, 3])
            }
        }
        #expect(try await fixture.app.store.device(named: "watch", userID: fixture.ada.id) != nil)
        #expect(try await fixture.storedCount(fixture.ada) == 7)
    }

    @Test("a Takeout-like .zip imports its location files and names the others; a .kmz imports its KML")
    func archives() async throws {
        let fixture = try await ServerFixture.make()
        let takeout = try ZipTestArchive.make([
            .init(name: "Takeout/archive_browser.html", bytes: Array("<html><body>Takeout</body></html>".utf8)),
            .init(name: "Takeout/Standortverlauf/rides.gpx", bytes: Array(Self.gpx.utf8)),
            .init(name: "Takeout/Fit/walk.csv", bytes: Array(Self.csv.utf8), deflated: false),
            .init(name: "Takeout/Photos/IMG_1.jpg", bytes: ZipTestArchive.noise(count: 50_000), deflated: false),
        ], fileName: "takeout.zip")
        let kmz = try ZipTestArchive.make([.init(name: "doc.kml", bytes: Array(Self.kml.utf8))], fileName: "trip.kmz")
        try await fixture.test { client in
            for (path, expected) in [(takeout, 5), (kmz, 2)] {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                try await client.execute(uri: "/api/v1/imports?filename=\(URL(fileURLWithPath: path).lastPathComponent)", method: .post,
                                         headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(bytes: bytes)) { response in
                    #expect(response.status == .ok, "\(response.body.text)")
                    let answer = try #require(response.body.json as? [String: Any])
                    #expect(answer["imported"] as? Int == expected, "\(answer)")
                }
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 7)
    }

    @Test("with Accept: application/x-ndjson the page hears progress, then the report")
    func streamedProgress() async throws {
        let fixture = try await ServerFixture.make()
        let headers = Auth.basic("ada", ServerFixture.adaPassword).adding("Accept", "application/x-ndjson")
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/imports?filename=walk.csv", method: .post, headers: headers,
                                     body: ByteBuffer(Self.csv)) { response in
                #expect(response.status == .ok)
                let lines = response.body.text.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                #expect(lines.contains { $0["progress"] != nil })
                let report = try #require(lines.last?["report"] as? [String: Any])
                #expect(report["imported"] as? Int == 3)
                #expect(report["firstTimestamp"] as? String == "2024-05-02T10:00:00Z")
            }
        }
    }

    @Test("a broken file stores nothing and says where; the upload leaves no file behind")
    func brokenFile() async throws {
        let fixture = try await ServerFixture.make()
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [])
        let broken = String(Self.gpx.prefix(Self.gpx.count - 40))
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/imports?filename=cut.gpx", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword), body: ByteBuffer(broken)) { response in
                #expect(response.status == .badRequest)
                let report = try #require(response.body.json as? [String: Any])
                #expect(report["status"] as? String == "failed")
                #expect((report["error"] as? String)?.contains("line") == true, "\(report)")
                #expect(!(response.body.text.contains(NSTemporaryDirectory())), "no server path in the answer")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [])
        // What an upload could leave: a spooled body (`travelog-body-`, unlinked at once). Other suites
        // running meanwhile make folders of their own in the same place (a PostgreSQL cluster's).
        #expect(after.subtracting(before).filter { $0.hasPrefix("travelog-body-") }.isEmpty)
    }
}
