import Foundation
import Synchronization
import Testing
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore
import TravelogTestSupport

/// Every stored location goes through its user's regions, whatever route or import brought it.
@Suite("RegionEvaluator")
struct RegionEvaluatorTests {
    static let home = Coordinate(validLatitude: 52.52, longitude: 13.405)!

    /// A day out: 2 minutes at home, a walk 600 m north, 3 minutes there, and back home for
    /// 3 minutes; a fix every 10 s with 10 m accuracy.
    static func walk(startingAt start: Date) -> [Location] {
        var fixes: [Location] = []
        var time = start
        func fix(_ metersNorth: Double) {
            let coordinate = Coordinate(validLatitude: home.latitude + metersNorth / 111_200, longitude: home.longitude)!
            fixes.append(Location(coordinate: coordinate, horizontalAccuracyMeters: 10, timestamp: time))
            time = time.addingTimeInterval(10)
        }
        for _ in 0..<12 { fix(0) }
        for step in 1...12 { fix(Double(step) * 50) }
        for _ in 0..<18 { fix(600) }
        for step in (0..<12).reversed() { fix(Double(step) * 50) }
        for _ in 0..<18 { fix(0) }
        return fixes
    }

    final class Outbox: Sendable {
        let messages = Mutex<[NotificationMessage]>([])
        var keys: [String] { messages.withLock { $0.map(\.key) } }
    }

    static func prepared() async throws -> (InMemoryLocationStore, Device, StoredRegion, HistoryWriter, Outbox) {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let region = try await store.addRegion(try RegionDefinition(name: "Home", shape: .circle(Circle(center: home, radiusMeters: 150))),
                                               userID: ada.id, at: Date())
        let outbox = Outbox()
        return (store, phone, region, writer(store, outbox), outbox)
    }

    static func writer(_ store: InMemoryLocationStore, _ outbox: Outbox) -> HistoryWriter {
        let evaluator = RegionEvaluator(store: store) { message, _ in outbox.messages.withLock { $0.append(message) } }
        var writer = HistoryWriter(store: store, journal: nil)
        writer.regions = evaluator
        return writer
    }

    static func write(_ fixes: [Location], _ writer: HistoryWriter, _ device: Device) async throws {
        var target = DeviceTarget.device(device)
        _ = try await writer.write(fixes.enumerated().map { IncomingItem(.location($1), position: "item \($0)") }, to: &target,
                                   source: .api, visitSource: .file, route: "test", policy: .atomic)
    }

    static func kinds(_ store: InMemoryLocationStore, _ device: Device) async throws -> [String] {
        try await store.transitions(userID: device.userID, regionID: nil, from: nil, to: nil).map {
            "\($0.transition.kind == .entry ? "enter" : "exit")@\($0.transition.source.rawValue)"
        }
    }

    @Test("a live walk out and back stores one exit and one entry and notifies each once, across a restart")
    func liveOnce() async throws {
        let (store, phone, region, writer, outbox) = try await Self.prepared()
        let fixes = Self.walk(startingAt: Date().addingTimeInterval(-700))
        // Fix by fix, as a phone sends them, with a restart (a new writer) halfway.
        for fix in fixes.prefix(30) { try await Self.write([fix], writer, phone) }
        let restarted = Self.writer(store, outbox)
        for fix in fixes.dropFirst(30) { try await Self.write([fix], restarted, phone) }
        // A retried batch stores nothing and notifies nothing.
        try await Self.write(Array(fixes.suffix(20)), restarted, phone)
        #expect(try await Self.kinds(store, phone) == ["exit@detected", "enter@detected"])
        #expect(outbox.keys.count == 2)
        #expect(outbox.messages.withLock { $0.map(\.title) } == ["Left: Home", "Arrived: Home"])
        let exit = try #require(try await store.transitions(userID: phone.userID, regionID: region.id, from: nil, to: nil).first)
        // The crossing time is the first fix beyond the boundary by the cushion (150 + 25 m: the 200 m fix).
        #expect(exit.transition.occurredAt == StoragePrecision.rounded(fixes[15]).timestamp)
        #expect(try await store.regionCheckpoint(deviceID: phone.id)?.regions[region.id]?.state == .inside)
    }

    @Test("imported history gets its transitions without notifications")
    func historyQuiet() async throws {
        let (store, phone, _, writer, outbox) = try await Self.prepared()
        try await Self.write(Self.walk(startingAt: Date(timeIntervalSince1970: 1_700_000_000)), writer, phone)
        #expect(try await Self.kinds(store, phone) == ["exit@detected", "enter@detected"])
        #expect(outbox.keys.isEmpty)
    }

    @Test("a day stored in halves, the later half first, gives the transitions of the whole day")
    func lateHalf() async throws {
        let (store, phone, _, writer, _) = try await Self.prepared()
        let fixes = Self.walk(startingAt: Date(timeIntervalSince1970: 1_700_000_000))
        try await Self.write(Array(fixes[36...]), writer, phone)
        try await Self.write(Array(fixes[..<36]), writer, phone)
        #expect(try await Self.kinds(store, phone) == ["exit@detected", "enter@detected"])
        let (whole, device, _, wholeWriter, _) = try await Self.prepared()
        try await Self.write(fixes, wholeWriter, device)
        let times = { (store: InMemoryLocationStore, device: Device) in
            try await store.transitions(userID: device.userID, regionID: nil, from: nil, to: nil).map(\.transition.occurredAt)
        }
        #expect(try await times(store, phone) == times(whole, device))
    }

    @Test("a user without regions costs one read and stores nothing")
    func noRegions() async throws {
        let (store, phone, region, writer, outbox) = try await Self.prepared()
        #expect(try await store.removeRegion(id: region.id, userID: phone.userID))
        try await Self.write(Self.walk(startingAt: Date().addingTimeInterval(-700)), writer, phone)
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == nil)
        #expect(outbox.keys.isEmpty)
    }

    @Test("a file that breaks after batches were stored is discarded with the transitions they produced; the next file starts afresh")
    func discardedImport() async throws {
        let (store, phone, _, writer, outbox) = try await Self.prepared()
        let fixes = Self.walk(startingAt: Date(timeIntervalSince1970: 1_700_000_000))
        let points = fixes.map {
            "<trkpt lat=\"\($0.coordinate.latitude)\" lon=\"\($0.coordinate.longitude)\"><time>\(ISO8601TimeFormatter.string($0.timestamp))</time></trkpt>"
        }
        let folder = TestDirectory.makeFolder("discarded-import")
        let cut = folder.appendingPathComponent("cut.gpx").path
        try ("<gpx version=\"1.1\"><trk><trkseg>\n" + points.joined(separator: "\n") + "\n<trkpt lat=\"1\" lon=\"2\"><ti").write(toFile: cut, atomically: true, encoding: .utf8)
        var importer = FileImporter(writer: writer)
        importer.batchSize = 10  // the walk's exit and entry are stored (and evaluated) before the file breaks
        let report = await importer.importFile(at: cut, deviceID: phone.id)
        guard case .failed = report.outcome else {
            Issue.record("expected a failure, got \(report.outcome)")
            return
        }
        #expect(try await store.locations(LocationQuery(userID: phone.userID)).isEmpty)
        #expect(try await Self.kinds(store, phone) == [], "the transitions of the discarded fixes went with them")
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == nil)
        // The whole file imported afterwards finds them again, as if the broken one had never been.
        let whole = folder.appendingPathComponent("day.gpx").path
        try ("<gpx version=\"1.1\"><trk><trkseg>\n" + points.joined(separator: "\n") + "\n</trkseg></trk></gpx>\n").write(toFile: whole, atomically: true, encoding: .utf8)
        let again = await importer.importFile(at: whole, deviceID: phone.id)
        #expect(again.inserted == fixes.count)
        #expect(try await Self.kinds(store, phone) == ["exit@detected", "enter@detected"])
        #expect(outbox.keys.isEmpty, "history notifies nothing")
    }
}
