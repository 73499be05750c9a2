import Foundation
import Testing
import TravelogFormats
import TravelogImport
import TravelogStore
import TravelogTestSupport

@Suite("FileImporter")
struct FileImporterTests {
    static func temporaryFile(_ contents: String, name: String) throws -> String {
        let directory = TestDirectory.makeFolder("import")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    static func prepared() async throws -> (InMemoryLocationStore, Device) {
        let store = InMemoryLocationStore()
        let user = try await store.addUser(named: "ada")
        return (store, try await store.addDevice(named: "phone", userID: user.id))
    }

    @Test("a settings file is skipped and named, not an error")
    func settingsSkipped() async throws {
        let (store, phone) = try await Self.prepared()
        let path = try Self.temporaryFile(#"{"gaiaId": "1", "deviceSettings": []}"#, name: "Settings.json")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        guard case .skipped(let reason) = report.outcome else {
            Issue.record("expected skipped, got \(report.outcome)")
            return
        }
        #expect(reason.contains("not location history"))
        #expect(!report.failed)
    }

    @Test("a file of unknown content fails with what was expected, and stores nothing")
    func unknownFails() async throws {
        let (store, phone) = try await Self.prepared()
        let path = try Self.temporaryFile("hello, world\n", name: "notes.txt")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        #expect(report.failed)
        guard case .failed(let reason) = report.outcome else { return }
        #expect(reason.contains("expected GPX"))
        #expect(try await store.imports(userID: phone.userID).isEmpty)
    }

    @Test("a missing file fails with its path")
    func missingFile() async throws {
        let (store, phone) = try await Self.prepared()
        let report = await FileImporter(store: store).importFile(at: "/nonexistent/travelog.gpx", deviceID: phone.id)
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("/nonexistent/travelog.gpx"))
    }
}

@Suite("FileImporter on GPX")
struct FileImporterGPXTests {
    @Test("track points and timed waypoints are history; route points (a plan) are passed over and counted")
    func routesAreNotHistory() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let path = try FileImporterTests.temporaryFile("""
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="1.5" lon="2.5"><time>2024-01-01T09:00:00Z</time><name>Café</name></wpt>
              <rte><rtept lat="1" lon="2"><time>2024-01-01T10:00:00Z</time></rtept></rte>
              <trk><trkseg>
                <trkpt lat="1" lon="2"><time>2024-01-01T11:00:00Z</time></trkpt>
                <trkpt lat="1.001" lon="2"><time>2024-01-01T11:00:10Z</time></trkpt>
                <trkpt lat="200" lon="2"><time>2024-01-01T11:00:20Z</time></trkpt>
              </trkseg></trk>
            </gpx>
            """, name: "day.gpx")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        #expect(report.inserted == 3)
        #expect(report.rejected == 1)
        #expect(report.rejections.first?.position.line == 8)
        #expect(report.skipped.values.reduce(0, +) == 1)
    }

    @Test("a truncated GPX file stores nothing and says where it broke")
    func truncated() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let path = try FileImporterTests.temporaryFile("""
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="1" lon="2"><time>2024-01-01T11:00:00Z</time></trkpt>
            <trkpt lat="1.001" lon="2"><time>2024-01-01T11:00:10Z</ti
            """, name: "cut.gpx")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure, got \(report.outcome)")
            return
        }
        #expect(reason.contains("line 3"))
        #expect(try await store.locations(LocationQuery(userID: phone.userID)).isEmpty)
    }
}
