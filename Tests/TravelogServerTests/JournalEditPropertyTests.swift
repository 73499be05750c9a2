import Foundation
import Testing
import TravelogCore
import TravelogJournal
import TravelogPostgres
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// A person's decisions compose (issue 26): random sequences of renames, deletions, restorations,
/// merges, unmerges, place names, re-processing and new data leave exactly what the person asked,
/// after every step, on every store, for a person with two devices whose stays interleave. A failure
/// names the seed and the steps to replay it.
@Suite("Journal decisions compose")
struct JournalEditPropertyTests {
    enum Backend: String, CaseIterable, Sendable { case memory, sqlite, postgres }

    static let sequences = 200
    static let maximumSteps = 12

    @Test("random sequences of edits and re-detections give what the person asked", arguments: [Backend.memory, .sqlite])
    func randomSequences(backend: Backend) async throws {
        try await Self.play(backend) {
            switch backend {
            case .memory: InMemoryLocationStore()
            default: try SQLiteLocationStore(path: TestDirectory.url.appendingPathComponent("property-\(UUID().uuidString)/db.sqlite").path)
            }
        }
    }

    @Test("the same sequences on PostgreSQL", .enabled(if: PostgresLiveFeedTests.server != nil,
                                                       "TRAVELOG_TEST_POSTGRES_URL is not set: journal decisions were not tested on PostgreSQL"))
    func randomSequencesOnPostgres() async throws {
        let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        // One schema; each sequence is a user of its own.
        let store = try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4)
        // Fewer sequences: a round trip to the server per read and write makes each ten times slower, and this
        // test was the last of the whole suite to end (70 s after the rest with 60 sequences on a two-core machine).
        try await Self.play(.postgres, sequences: 30) { store }
    }

    /// Plays the sequences, each on the store `makeStore` gives, and records the first that fails.
    static func play(_ backend: Backend, sequences: Int = Self.sequences,
                     makeStore: () async throws -> any LocationStore & AccountStore & JournalStore) async throws {
        for seed in 0..<UInt64(sequences) {
            var run = try await SequenceRun(seed: seed, backend: backend, store: try await makeStore())
            try await run.play(steps: Self.maximumSteps)
            // One failing sequence is enough to read; the rest would repeat it.
            if !run.failures.isEmpty {
                Issue.record(Comment(rawValue: run.report()))
                return
            }
        }
    }
}

/// A fixed describer: every place is in Berlin.
struct BerlinPlaces: PlaceDescriber {
    func placemark(for coordinate: Coordinate) -> VisitPlacemark? {
        VisitPlacemark(name: "Berlin", administrativeArea: "Berlin", country: "Germany", isoCountryCode: "DE",
                       timeZone: "Europe/Berlin")
    }
}

/// Synthetic days of stays at a handful of places in Berlin, a fix every two minutes.
struct StayHistory {
    static let start = Date(timeIntervalSince1970: 1_717_221_600)  // 2024-06-01T06:00:00Z
    static let stepSeconds: TimeInterval = 120

    /// The places of this device's stays.
    let places: [Coordinate]
    var fixes: [Location] = []
    var lastPlace: Int?
    var end: Date

    /// - Parameters:
    ///   - northMeters: how far north of the first device's places this one's lie (about).
    ///   - startMinutes: when its history starts after `start`.
    init(northMeters: Double = 0, startMinutes: Double = 0) {
        places = [(52.5200, 13.4050), (52.5350, 13.4300), (52.5050, 13.4500), (52.4900, 13.3900), (52.5300, 13.3700)]
            .map { Coordinate(validLatitude: $0.0 + northMeters / 111_000, longitude: $0.1)! }
        end = Self.start.addingTimeInterval(startMinutes * 60)
    }

    /// Appends a trip from the last place (none the first time) and a stay of 40 to 180 minutes.
    /// - Returns: the fixes appended.
    @discardableResult
    mutating func addStay(using random: inout SplitMix64) -> [Location] {
        var place = Int(random.next() % UInt64(places.count))
        if place == lastPlace { place = (place + 1) % places.count }
        var added: [Location] = []
        func fix(_ coordinate: Coordinate) {
            let jitter = { (random: inout SplitMix64) in (Double(random.next() % 61) - 30) * 1e-6 * 0.1 }
            let at = Coordinate(validLatitude: coordinate.latitude + jitter(&random), longitude: coordinate.longitude + jitter(&random))!
            added.append(Location(coordinate: at, horizontalAccuracyMeters: 8, timestamp: end))
            end = end.addingTimeInterval(Self.stepSeconds)
        }
        if let lastPlace {
            let from = places[lastPlace], to = places[place]
            for step in 1..<10 {
                let t = Double(step) / 10
                fix(Coordinate(validLatitude: from.latitude + (to.latitude - from.latitude) * t,
                               longitude: from.longitude + (to.longitude - from.longitude) * t)!)
            }
        }
        let minutes = 40 + Int(random.next() % 141)
        for _ in 0..<(minutes / 2) { fix(places[place]) }
        lastPlace = place
        fixes += added
        return added
    }

    /// Appends 10 to 60 more minutes at the last place: the last stay goes on longer.
    /// - Returns: the fixes appended.
    mutating func extendStay(using random: inout SplitMix64) -> [Location] {
        guard let lastPlace else { return [] }
        var added: [Location] = []
        for _ in 0..<(5 + Int(random.next() % 26)) {
            added.append(Location(coordinate: places[lastPlace], horizontalAccuracyMeters: 8, timestamp: end))
            end = end.addingTimeInterval(Self.stepSeconds)
        }
        fixes += added
        return added
    }
}

/// What the person asked, step by step: the entries as first detected, and the decisions about them.
struct JournalModel {
    struct Entry: Equatable {
        var id: VisitID
        var device: DeviceID
        var arrival: Date
        var departure: Date?
    }

    var entries: [Entry] = []
    var titles: [VisitID: String] = [:]
    var deleted: Set<VisitID> = []
    /// A merged entry and the entries its merge covers (deleted ones between the merged entries too).
    var joined: [VisitID: [VisitID]] = [:]
    var placeNames: [PlaceID: String] = [:]
    /// Entries a file described (Google's visits).
    var described: Set<VisitID> = []

    var covered: Set<VisitID> { Set(joined.values.joined()) }
    /// What a listing with the deleted entries shows.
    var listed: [Entry] {
        let covered = covered
        return entries.filter { !covered.contains($0.id) }.sorted { ($0.arrival, $0.id) < ($1.arrival, $1.id) }
    }
    var shown: [Entry] { listed.filter { !deleted.contains($0.id) } }

    func entry(_ id: VisitID) -> Entry? { entries.first { $0.id == id } }

    func shownDeparture(_ id: VisitID) -> Date? {
        guard let own = entry(id) else { return nil }
        guard let parts = joined[id], !parts.isEmpty else { return own.departure }
        let ends = parts.compactMap(shownDeparture) + [own.departure].compactMap { $0 }
        return ends.max()
    }

    mutating func merge(_ ids: [VisitID]) {
        guard let head = ids.first, let last = ids.last.flatMap(entry), let first = entry(head) else { return }
        let between = listed.filter { $0.device == first.device && $0.id != head && $0.arrival > first.arrival && $0.arrival <= last.arrival }
            .map(\.id)
        joined[head, default: []] += between
    }
}

/// One random sequence on one store.
struct SequenceRun {
    let seed: UInt64
    let backend: JournalEditPropertyTests.Backend
    var random: SplitMix64
    let store: any LocationStore & AccountStore & JournalStore
    /// Two devices of the person (a phone and a watch elsewhere), their stays interleaved in time.
    var devices: [Device] = []
    var histories = [StayHistory(), StayHistory(northMeters: 3_000, startMinutes: 50)]
    /// The device a step is about.
    var current = 0
    var device: Device { devices[current] }
    var history: StayHistory { histories[current] }
    let processor: JournalProcessor
    var model = JournalModel()
    var log: [String] = []
    var failures: [String] = []
    var names = 0

    /// The stays' description when nothing else names an entry (`JournalEntry.describe`).
    static let describedName = "Berlin, DE"

    init(seed: UInt64, backend: JournalEditPropertyTests.Backend, store: any LocationStore & AccountStore & JournalStore) async throws {
        self.seed = seed
        self.backend = backend
        self.store = store
        random = SplitMix64(seed: 0x5EED_0000 &+ seed)
        let user = try await store.addUser(named: "ada\(seed)")
        for name in ["phone", "watch"] { devices.append(try await store.addDevice(named: name, userID: user.id)) }
        // Old data: the last stay has ended at its last fix.
        processor = JournalProcessor(store: store, describer: BerlinPlaces(), now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    mutating func play(steps: Int) async throws {
        for index in devices.indices {
            current = index
            let stays = (index == 0 ? 3 : 1) + Int(random.next() % 5)
            for _ in 0..<stays { _ = addStay() }
            try await upload(history.fixes)
            _ = try await processor.process(device: device)
            log.append("\(device.name): \(stays) stays, processed")
            let found = try await stored().filter { $0.visit.deviceID == device.id }
            if found.count != stays { failures.append("\(stays) stays of \(device.name) gave \(found.count) entries") }
            model.entries += found.map {
                JournalModel.Entry(id: $0.id, device: device.id, arrival: $0.visit.arrival, departure: $0.visit.departure)
            }
        }
        try await check()
        let count = 1 + Int(random.next() % UInt64(steps))
        for _ in 0..<count where failures.isEmpty {
            try await step()
            try await check()
        }
    }

    func stored() async throws -> [StoredVisit] {
        try await store.visits(userID: device.userID, deviceIDs: nil, from: nil, to: nil, includeHidden: true)
    }

    mutating func addStay() -> [Location] {
        var changed = histories[current]
        defer { histories[current] = changed }
        return changed.addStay(using: &random)
    }

    mutating func extendStay() -> [Location] {
        var changed = histories[current]
        defer { histories[current] = changed }
        return changed.extendStay(using: &random)
    }

    func upload(_ fixes: [Location]) async throws {
        _ = try await store.insert(fixes.map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
    }

    mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))]
    }

    mutating func step() async throws {
        let editor = JournalEditor(store: store)
        current = Int(random.next() % UInt64(devices.count))
        let user = device.userID
        switch random.next() % 13 {
        case 0, 1:
            guard let entry = pick(model.shown) else { return }
            names += 1
            let title = "Title \(names)"
            log.append("rename \(entry.id) \(title)")
            _ = try await editor.rename(visit: entry.id, userID: user, title: title)
            model.titles[entry.id] = title
        case 2:
            guard let entry = pick(model.shown.filter { model.titles[$0.id] != nil }) ?? pick(model.shown) else { return }
            log.append("remove the title of \(entry.id)")
            _ = try await editor.rename(visit: entry.id, userID: user, title: nil)
            model.titles[entry.id] = nil
        case 3:
            guard let entry = pick(model.shown) else { return }
            log.append("delete \(entry.id)")
            try await editor.delete(visit: entry.id, userID: user)
            model.deleted.insert(entry.id)
        case 4:
            guard let entry = pick(model.listed.filter { model.deleted.contains($0.id) }) else { return }
            log.append("restore \(entry.id)")
            try await editor.restore(visit: entry.id, userID: user)
            model.deleted.remove(entry.id)
        case 5:
            let shown = model.shown.filter { $0.device == device.id }
            let count = 2 + Int(random.next() % 2)
            guard shown.count >= count else { return }
            let first = Int(random.next() % UInt64(shown.count - count + 1))
            let ids = shown[first..<(first + count)].map(\.id)
            log.append("merge \(ids)")
            _ = try await editor.merge(visits: ids, userID: user)
            model.merge(ids)
        case 6:
            guard let entry = pick(model.shown.filter { !(model.joined[$0.id] ?? []).isEmpty }) else { return }
            log.append("unmerge \(entry.id)")
            try await editor.unmerge(visit: entry.id, userID: user)
            model.joined[entry.id] = nil
        case 7:
            let places = Set(try await stored().filter { stored in model.shown.contains { $0.id == stored.id } }.compactMap(\.placeID))
            guard let place = pick(places.sorted()) else { return }
            names += 1
            let name: String? = random.next() % 4 == 0 ? nil : "Place \(names)"
            log.append("name place \(place) \(name ?? "nil")")
            _ = try await editor.rename(place: place, userID: user, name: name)
            model.placeNames[place] = name
        case 8:
            let span = history.end.timeIntervalSince(StayHistory.start)
            if random.next() % 2 == 0 {
                log.append("\(device.name): process everything")
                _ = try await processor.process(device: device)
            } else {
                let a = StayHistory.start.addingTimeInterval(span * random.nextUnit())
                let b = StayHistory.start.addingTimeInterval(span * random.nextUnit())
                log.append("\(device.name): process \(min(a, b))–\(max(a, b))")
                _ = try await processor.process(device: device, from: min(a, b), to: max(a, b))
            }
        case 9:
            let added = addStay()
            log.append("\(device.name): a new stay of \(added.count) fixes")
            try await upload(added)
            _ = try await processor.process(device: device, from: added.first?.timestamp, to: added.last?.timestamp)
            let known = Set(model.entries.map(\.id))
            let new = try await stored().filter { !known.contains($0.id) }
            guard new.count == 1, let visit = new.first else {
                failures.append("a new stay gave \(new.count) new entries")
                return
            }
            model.entries.append(JournalModel.Entry(id: visit.id, device: device.id, arrival: visit.visit.arrival,
                                                    departure: visit.visit.departure))
        case 10:
            let added = extendStay()
            guard let last = added.last?.timestamp,
                  let index = model.entries.indices.last(where: { model.entries[$0].device == device.id }) else { return }
            log.append("\(device.name): the last stay goes on \(added.count) fixes longer")
            try await upload(added)
            _ = try await processor.process(device: device, from: added.first?.timestamp, to: last)
            // Detected in old data, a stay ends at its last fix.
            model.entries[index].departure = last
        case 11:
            // A file (Google's Timeline) describes a stay already detected: its visit takes the entry's place,
            // with the person's decisions. Not the device's last stay, which may go on longer.
            let last = model.entries.last { $0.device == device.id }?.id
            guard let entry = pick(model.listed.filter { $0.device == device.id && $0.id != last && !model.described.contains($0.id)
                                                        && (model.joined[$0.id] ?? []).isEmpty }),
                  let index = model.entries.firstIndex(of: entry),
                  let stored = try await stored().first(where: { $0.id == entry.id }) else { return }
            log.append("\(device.name): a file describes the stay of \(entry.id)")
            let visit = JournalVisit(deviceID: device.id, source: .google, arrival: entry.arrival, departure: entry.departure,
                                     center: stored.visit.center, radiusMeters: 50, locationCount: 0)
            _ = try await processor.storeDescribedVisits([visit], device: device, source: .google)
            let known = Set(model.entries.map(\.id))
            let new = try await self.stored().filter { !known.contains($0.id) }
            guard new.count == 1, let described = new.first else {
                failures.append("a file's visit gave \(new.count) new entries")
                return
            }
            model.entries[index].id = described.id
            model.described.insert(described.id)
            model.titles[described.id] = model.titles.removeValue(forKey: entry.id)
            if model.deleted.remove(entry.id) != nil { model.deleted.insert(described.id) }
        default:
            let count = history.fixes.count
            let from = Int(random.next() % UInt64(count)), length = 1 + Int(random.next() % 60)
            let again = Array(history.fixes[from..<min(count, from + length)])
            log.append("\(device.name): the fixes \(from)..<\(from + again.count) uploaded again")
            try await upload(again)
            _ = try await processor.process(device: device, from: again.first?.timestamp, to: again.last?.timestamp)
        }
    }

    /// What the reader shows against the model.
    mutating func check() async throws {
        let reader = JournalReader(store: store)
        let shown = try await reader.entries(userID: device.userID, from: nil, to: nil)
        let listed = try await reader.entries(userID: device.userID, from: nil, to: nil, includeHidden: true)
        let places = Dictionary(uniqueKeysWithValues: try await store.places(userID: device.userID).map { ($0.id, $0) })
        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { failures.append(message()) }
        }
        let expected = model.shown
        expect(shown.map(\.id) == expected.map(\.id.rawValue),
               "shown \(shown.map(\.id)), the person asked for \(expected.map(\.id.rawValue))")
        expect(listed.map(\.id) == model.listed.map(\.id.rawValue),
               "listed with the deleted \(listed.map(\.id)), the person asked for \(model.listed.map(\.id.rawValue))")
        expect(Set(listed.map(\.id)).count == listed.count, "an entry is listed twice: \(listed.map(\.id))")
        let covered = model.covered
        expect(!listed.contains { covered.contains(VisitID(rawValue: $0.id)) }, "a merged-over entry is listed: \(listed.map(\.id))")
        expect(!shown.contains { model.deleted.contains(VisitID(rawValue: $0.id)) }, "a deleted entry is shown: \(shown.map(\.id))")
        for entry in listed {
            let id = VisitID(rawValue: entry.id)
            expect(entry.hidden == model.deleted.contains(id), "entry \(entry.id) hidden \(entry.hidden)")
            guard let asked = model.entry(id) else { continue }
            expect(entry.arrival == LocalTime.iso(asked.arrival, in: nil), "entry \(entry.id) arrives \(entry.arrival), was \(asked.arrival)")
            let departure = model.shownDeparture(id).map { LocalTime.iso($0, in: nil) }
            expect(entry.departure == departure, "entry \(entry.id) departs \(entry.departure ?? "nil"), asked \(departure ?? "nil")")
            let placeName = entry.placeID.flatMap { places[PlaceID(rawValue: $0)]?.name }
            expect(placeName == entry.placeID.flatMap { model.placeNames[PlaceID(rawValue: $0)] },
                   "place \(entry.placeID.map(String.init) ?? "nil") is named \(placeName ?? "nil")")
            let name = model.titles[id] ?? placeName ?? Self.describedName
            expect(entry.place == name, "entry \(entry.id) is called \(entry.place), the person asked for \(name)")
        }
        // A range (a day of the page) lists the shown entries that overlap it, merged ones whole.
        let span = (histories.map(\.end).max() ?? StayHistory.start).timeIntervalSince(StayHistory.start)
        let a = StayHistory.start.addingTimeInterval(span * random.nextUnit())
        let b = a.addingTimeInterval(span * random.nextUnit())
        let inRange = try await reader.entries(userID: device.userID, from: a, to: b)
        let overlapping = expected.filter { $0.arrival < b && (model.shownDeparture($0.id) ?? .distantFuture) >= a }
        expect(inRange.map(\.id) == overlapping.map(\.id.rawValue),
               "\(a)–\(b) lists \(inRange.map(\.id)), the person asked for \(overlapping.map(\.id.rawValue))")
        expect(zip(shown, shown.dropFirst()).allSatisfy { $0.arrival <= $1.arrival }, "the devices' entries are not in time order")
        for (index, later) in shown.enumerated() {
            guard let earlier = shown[..<index].last(where: { $0.device == later.device }) else { continue }
            expect(earlier.arrival < later.arrival, "entries \(earlier.id) and \(later.id) out of order")
            expect((earlier.departure ?? "9") <= later.arrival, "entries \(earlier.id) and \(later.id) overlap")
        }
    }

    func report() -> String {
        "seed \(seed) on \(backend.rawValue) (JournalEditPropertyTests): \(failures.joined(separator: "; "))\nsteps:\n"
            + log.enumerated().map { "  \($0.offset). \($0.element)" }.joined(separator: "\n")
    }
}
