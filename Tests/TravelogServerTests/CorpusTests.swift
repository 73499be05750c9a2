import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogAccounts
import TravelogServer
import TravelogStore
import TravelogTestSupport

/// Every location file of `../shared/fixtures` for one user (a device per source project), plus
/// generated years with nights, flights and weeks of silence stored in a random order, and the
/// invariants every output must keep on such a history. Invariants, not snapshots.
@Suite("The corpus: real files and gappy years in one account",
       .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct CorpusTests {
    /// The source projects whose files are location history (gpsd's NMEA logs, Karney's rows and
    /// Traccar's request vectors are not files a person imports).
    static let sources = ["reitti", "dawarich", "trackintel-geolife", "owntracks", "overland", "gpxpy", "gpsbabel"]
    static let bound = HistoryGap.defaultMaximumSilenceSeconds

    /// The account with the corpus imported and the journal processed.
    static func corpus() async throws -> (ServerFixture, [Device]) {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        var devices = try await importRealFiles(fixture)
        // Two generated years, stored in shuffled chunks (the order a phone's queue may deliver them).
        let (generated, _) = try await fixture.app.accounts.addDevice(named: "generated", userID: fixture.ada.id, app: nil)
        devices.append(generated)
        let history = GappyHistory(seed: 2026, days: 730, start: 1_640_995_200, intervalSeconds: 600)
        var chunks = stride(from: 0, to: history.locations.count, by: 5_000).map {
            Array(history.locations[$0..<min($0 + 5_000, history.locations.count)])
        }
        var generator = SplitMix64(seed: 10)
        chunks.shuffle(using: &generator)
        for chunk in chunks {
            _ = try await store.insert(chunk.map { StoredLocation(deviceID: generated.id, location: $0, source: .api) })
        }
        for device in devices { _ = try await fixture.app.journal.processor.process(device: device) }
        return (fixture, devices)
    }

    /// Every location file of the shared sources imported for ada, a device per source project,
    /// with the visits the files hold stored as the journal's (the real-data part of the corpus).
    static func importRealFiles(_ fixture: ServerFixture) async throws -> [Device] {
        var devices: [Device] = []
        let importer = FileImporter(store: fixture.app.store)
        for source in sources {
            let (device, _) = try await fixture.app.accounts.addDevice(named: source, userID: fixture.ada.id, app: nil)
            devices.append(device)
            let folder = SharedFixtures.url(source)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { ($0 as? URL)?.path }.filter { !$0.hasSuffix(".md") }.sorted() ?? []
            for file in files where !FileManager.default.directoryExists(file) {
                let report = await importer.importFile(at: file, deviceID: device.id, skipUnrecognized: true)
                let visits = report.journalVisits(deviceID: device.id)
                if let source = visits.first?.source {
                    _ = try await fixture.app.journal.processor.storeDescribedVisits(visits, device: device, source: source)
                }
            }
        }
        return devices
    }

    /// The silences longer than the bound in a device's fixes inside `[from, to]`, with the fixes
    /// just outside the interval included.
    static func hasGap(_ store: any TravelogStore, device: Device, from: Date, to: Date) async throws -> Bool {
        let fixes = try await store.locations(LocationQuery(userID: device.userID, deviceIDs: [device.id], from: from,
                                                            to: to.addingTimeInterval(0.001)))
        let times = fixes.map(\.location.timestamp)
        return zip(times, times.dropFirst()).contains { $1.timeIntervalSince($0) > bound }
    }

    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> Any {
        try await client.execute(uri: uri, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
            #expect(response.status == .ok, "\(uri)")
            return try #require(response.body.json)
        }
    }

    @Test("stats, whereabouts, visits and trips keep their invariants; the CLI's figures and the API's agree")
    func invariants() async throws {
        let (fixture, devices) = try await Self.corpus()
        let store = fixture.app.store
        let reader = JournalReader(store: store)
        let zones = try PlaceTimeZones(describer: GazetteerDescriber(gazetteer: ServerFixture.gazetteer()))
        try await fixture.test { client in
            var totals: [Double] = []
            for period in CalendarPeriod.allCases {
                let body = try #require(try await Self.get(client, "/api/v1/stats?by=\(period.rawValue)") as? [String: Any])
                let periods = try #require(body["periods"] as? [[String: Any]])
                let total = try #require(body["total"] as? [String: Any])
                let distances = periods.compactMap { $0["distanceMeters"] as? Double }
                #expect(distances.count == periods.count)
                #expect(distances.allSatisfy { $0 >= 0 }, "\(period): a negative distance")
                let totalMeters = try #require(total["distanceMeters"] as? Double)
                #expect(abs(distances.reduce(0, +) - totalMeters) <= 0.001 * Double(periods.count) + 1e-6 * totalMeters)
                #expect(periods.compactMap { $0["locations"] as? Int }.reduce(0, +) == total["locations"] as? Int)
                #expect((total["unrecordedMovements"] as? Int ?? 0) > 0, "the generated years move across gaps")
                totals.append(totalMeters)
                // The CLI computes the same figures through the same library call and zones.
                let (cliPeriods, cliTotal) = try await HistoryStatistics.compute(
                    store: store, userID: fixture.ada.id, devices: try await store.devices(userID: fixture.ada.id),
                    from: nil, to: nil, period: period, timeZone: TimeZone(identifier: "UTC")!,
                    placeOffsetSeconds: { zones.offsetSeconds(for: $0) })
                let cli = try #require(try JSONSerialization.jsonObject(with: HistoryStatistics.json(cliPeriods, total: cliTotal, units: .metric))
                                       as? [String: Any])
                #expect((cli["periods"] as? [[String: Any]])?.map { $0["period"] as? String } == periods.map { $0["period"] as? String })
                #expect((cli["total"] as? [String: Any])?["distanceMeters"] as? Double == totalMeters)
                #expect((cli["total"] as? [String: Any])?["locations"] as? Int == total["locations"] as? Int)
            }
            #expect(totals.allSatisfy { abs($0 - totals[0]) <= 1e-6 * max(1, totals[0]) + 0.01 }, "\(totals)")

            // Visits and trips: never across a gap; the API lists what the reader (the CLI's) lists.
            let entries = try #require(try await Self.get(client, "/api/v1/visits") as? [[String: Any]])
            let cliEntries = try await reader.entries(userID: fixture.ada.id, from: nil, to: nil)
            #expect(entries.map { $0["id"] as? Int } == cliEntries.map { Int($0.id) })
            let stored = try await store.visits(userID: fixture.ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
            #expect(!stored.isEmpty)
            for visit in stored where visit.visit.source == .detected {
                let device = try #require(devices.first { $0.id == visit.visit.deviceID })
                if let departure = visit.visit.departure {
                    let spansGap = try await Self.hasGap(store, device: device, from: visit.visit.arrival, to: departure)
                    #expect(!spansGap, "visit \(visit.id) spans a gap")
                }
            }
            let trips = try #require(try await Self.get(client, "/api/v1/trips") as? [[String: Any]])
            // Local days as the API reads them (the place's zone), which decide where a day's distance is cut.
            let cliTrips = try await reader.trips(userID: fixture.ada.id, from: nil, to: nil, utcOffset: HistoryStatistics.localOffset(
                placeOffsetSeconds: { zones.offsetSeconds(for: $0) }, timeZone: TimeZone(identifier: "UTC")!))
            #expect(trips.count == cliTrips.count)
            for trip in cliTrips {
                #expect(trip.durationSeconds > 0 && trip.distanceMeters > 0 && trip.mode != "stationary")
                let device = try #require(devices.first { $0.name == trip.device })
                let start = try #require(ISO8601DateFormatter().date(from: trip.start))
                let end = try #require(ISO8601DateFormatter().date(from: trip.end))
                let spansGap = try await Self.hasGap(store, device: device, from: start, to: end)
                #expect(!spansGap, "trip \(trip.start) spans a gap")
            }

            // Whereabouts: never more days in a country than the range has (a local day may begin
            // before a UTC range and end after it, so one more).
            let ranges: [(String, String)] = [("2022-03-01T00:00:00Z", "2022-03-02T00:00:00Z"),
                                              ("2022-03-01T00:00:00Z", "2022-04-15T00:00:00Z"),
                                              ("2000-01-01T00:00:00Z", "2030-01-01T00:00:00Z")]
            for (from, to) in ranges {
                let body = try #require(try await Self.get(client, "/api/v1/whereabouts?from=\(from)&to=\(to)") as? [String: Any])
                let countries = try #require(body["countries"] as? [[String: Any]])
                let start = try #require(ISO8601DateFormatter().date(from: from)), end = try #require(ISO8601DateFormatter().date(from: to))
                let rangeDays = Int((end.timeIntervalSince(start) / 86_400).rounded(.up)) + 1
                for country in countries {
                    #expect((country["days"] as? Int ?? .max) <= rangeDays, "\(country) in \(from)–\(to)")
                }
            }
        }
    }
}

extension FileManager {
    fileprivate func directoryExists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
