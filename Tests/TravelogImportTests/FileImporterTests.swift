import Foundation
import Testing
import TravelogFormats
import TravelogImport
import TravelogStore

@Suite("FileImporter")
struct FileImporterTests {
    static func temporaryFile(_ contents: String, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-import-\(UUID().uuidString)")
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
