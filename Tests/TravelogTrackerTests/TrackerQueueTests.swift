import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport
@testable import TravelogTracker

@Suite("The tracker's on-disk queue")
struct TrackerQueueTests {
    static func fix(_ second: Double) -> (time: Date, feature: String) {
        (Date(timeIntervalSince1970: 1_750_000_000 + second), "{\"n\":\(Int(second))}")
    }

    @Test("fixes stay queued across a reopen (a restart) until acknowledged, oldest first")
    func persistsUntilAcknowledged() throws {
        let path = TestDirectory.makeFolder("queue").appendingPathComponent("q.sqlite").path
        do {
            let queue = try TrackerQueue(path: path)
            try queue.enqueue([Self.fix(0), Self.fix(1), Self.fix(2)])
        }
        let reopened = try TrackerQueue(path: path)
        let batch = try reopened.oldest(limit: 2)
        #expect(batch.map(\.feature) == ["{\"n\":0}", "{\"n\":1}"])
        try reopened.acknowledge(batch)
        #expect(try reopened.oldest(limit: 10).map(\.feature) == ["{\"n\":2}"])
        let status = try reopened.status()
        #expect(status.queuedCount == 1 && status.lastUploadCount == 2 && status.lastFixFeature == "{\"n\":2}")
    }

    @Test("a full queue drops its oldest fixes, says how many, and counts them")
    func capacity() throws {
        let path = TestDirectory.makeFolder("queue").appendingPathComponent("q.sqlite").path
        let queue = try TrackerQueue(path: path, capacity: 3)
        #expect(try queue.enqueue((0..<3).map { Self.fix(Double($0)) }) == 0)
        #expect(try queue.enqueue([Self.fix(3), Self.fix(4)]) == 2)
        #expect(try queue.oldest(limit: 10).map(\.feature) == ["{\"n\":2}", "{\"n\":3}", "{\"n\":4}"])
        #expect(try queue.status().droppedCount == 2)
    }

    @Test("the queue file is readable by its owner only")
    func ownerOnly() throws {
        let path = TestDirectory.makeFolder("queue").appendingPathComponent("q.sqlite").path
        _ = try TrackerQueue(path: path)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test("an upload failure is recorded and cleared by the next acknowledgement")
    func uploadFailure() throws {
        let path = TestDirectory.makeFolder("queue").appendingPathComponent("q.sqlite").path
        let queue = try TrackerQueue(path: path)
        try queue.enqueue([Self.fix(0)])
        try queue.recordUploadFailure("HTTP 503")
        #expect(try queue.status().lastUploadError == "HTTP 503")
        try queue.acknowledge(try queue.oldest(limit: 1))
        #expect(try queue.status().lastUploadError == nil)
    }
}

@Suite("Uploads, sources and heading sentences of the tracker")
struct TrackerPiecesTests {
    @Test("an Overland batch is {\"locations\":[Feature…]} written by the GeoJSON encoder, read back by the GeoJSON reader")
    func overlandBody() throws {
        let location = Location(coordinate: Coordinate(validLatitude: 46.5, longitude: 6.6)!, altitudeMeters: 372,
                                horizontalAccuracyMeters: 4, timestamp: Date(timeIntervalSince1970: 1_750_000_000))
        let feature = try OverlandFeature.encode(location)
        #expect(feature.hasPrefix("{\"type\":\"Feature\"") && !feature.contains("\n"))
        let body = String(decoding: OverlandFeature.body([feature, feature]), as: UTF8.self)
        #expect(body == "{\"locations\":[\(feature),\(feature)]}")
        #expect(feature.contains("\"accuracy\":4"))
    }

    @Test("the upload backoff doubles from 5 s to at most 5 minutes and resets on success")
    func backoff() {
        var backoff = UploadBackoff()
        #expect((0..<8).map { _ in backoff.failed() } == [5, 10, 20, 40, 80, 160, 300, 300])
        backoff.succeeded()
        #expect(backoff.failed() == 5)
    }

    @Test("a Travelog server's base URL gets the Overland route; a receiver's full URL is kept")
    func endpoint() {
        #expect(OverlandUploader(server: URL(string: "http://127.0.0.1:8080")!, token: "t").endpoint.absoluteString
                == "http://127.0.0.1:8080/api/v1/overland")
        #expect(OverlandUploader(server: URL(string: "https://example.org/overland/receive")!, token: "t").endpoint.absoluteString
                == "https://example.org/overland/receive")
    }

    @Test("--nmea names a TCP or UDP stream, a serial device or a file; --gpsd a host and port")
    func sources() {
        #expect(GPSSource.nmea("tcp://boat.local:10110", baudRate: 4800, realTime: false) == .nmeaTCP(host: "boat.local", port: 10110))
        #expect(GPSSource.nmea("udp://:2000", baudRate: 4800, realTime: false) == .nmeaUDP(port: 2000))
        #expect(GPSSource.nmea("/dev/null", baudRate: 9600, realTime: false) == .serial(path: "/dev/null", baudRate: 9600))
        #expect(GPSSource.nmea("/tmp/walk.nmea", baudRate: 4800, realTime: true) == .nmeaFile(path: "/tmp/walk.nmea", realTime: true))
        #expect(GPSSource.hostAndPort("gps.local", defaultPort: 2947)! == ("gps.local", 2947))
        #expect(GPSSource.hostAndPort(":2948", defaultPort: 2947)! == ("127.0.0.1", 2948))
    }

    @Test("heading sentences are found in raw blocks, across block boundaries")
    func headingTap() {
        var tap = NMEAHeadingTap()
        let text = "$GPRMC,1,A*00\r\n$HEHDT,27"
        let rest = "4.07,T*19\r\n$HCHDG,98.3,,,12.6,W\r\n"
        let first = Array(text.utf8).withUnsafeBytes { tap.consume($0) }
        let second = Array(rest.utf8).withUnsafeBytes { tap.consume($0) }
        #expect(first.isEmpty)
        #expect(second.map(\.headingDegrees) == [274.07, 98.3])
    }
}
