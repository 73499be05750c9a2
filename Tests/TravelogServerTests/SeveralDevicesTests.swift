import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import NIOCore
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogServer
import TravelogStore
import TravelogTestSupport

/// One person, several devices (issue 26): the same history recorded by two devices, or one file
/// imported under two device names, is one body's movement; two devices on different trips are two.
/// What one import gives, two give: the day's distance, the total, the path's length, the entries.
enum SeveralDevices {
    static let auth = Auth.basic("ada", ServerFixture.adaPassword)

    /// The figures the API gives a person.
    struct Figures: @unchecked Sendable {
        var totalMeters: Double
        var dayMeters: [String: Double]
        var pathMeters: Double
        var entries: [[String: Any]]
        var trips: [[String: Any]]
    }

    /// Imports files under a device (made when missing) and processes its journal.
    @discardableResult
    static func importFiles(_ paths: [String], as name: String, app: TravelogServerApp, userID: UserID) async throws -> Device {
        let device = try await device(named: name, app: app, userID: userID)
        let importer = FileImporter(store: app.store)
        for path in paths {
            let report = await importer.importFile(at: path, deviceID: device.id, skipUnrecognized: true)
            #expect(report.inserted > 0, "\(path): nothing imported")
            let visits = report.journalVisits(deviceID: device.id)
            if let source = visits.first?.source {
                _ = try await app.journal.processor.storeDescribedVisits(visits, device: device, source: source)
            }
        }
        _ = try await app.journal.processor.process(device: device)
        return device
    }

    static func device(named name: String, app: TravelogServerApp, userID: UserID) async throws -> Device {
        if let device = try await app.store.device(named: name, userID: userID) { return device }
        return try await app.accounts.addDevice(named: name, userID: userID, app: nil).0
    }

    /// Stores generated fixes under a device and processes its journal.
    static func store(_ fixes: [Location], as name: String, app: TravelogServerApp, userID: UserID) async throws {
        let device = try await device(named: name, app: app, userID: userID)
        _ = try await app.store.insert(fixes.map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
        _ = try await app.journal.processor.process(device: device)
    }

    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> Any {
        try await client.execute(uri: uri, method: .get, headers: auth) { response in
            #expect(response.status == .ok, "\(uri)")
            return try #require(response.body.json)
        }
    }

    static func figures(_ client: some TestClientProtocol, query: String = "") async throws -> Figures {
        let separator = query.isEmpty ? "?" : "?\(query)&"
        let stats = try #require(try await get(client, "/api/v1/stats\(separator)by=day") as? [String: Any])
        let periods = try #require(stats["periods"] as? [[String: Any]])
        var days: [String: Double] = [:]
        for period in periods { days[period["period"] as? String ?? "?"] = period["distanceMeters"] as? Double }
        let total = try #require((stats["total"] as? [String: Any])?["distanceMeters"] as? Double)
        let path = try #require(try await get(client, "/api/v1/path\(separator)zoom=14") as? [String: Any])
        let pathMeters = try #require((path["properties"] as? [String: Any])?["distanceMeters"] as? Double)
        let entries = try #require(try await get(client, "/api/v1/visits\(query.isEmpty ? "" : "?" + query)") as? [[String: Any]])
        let trips = try #require(try await get(client, "/api/v1/trips\(query.isEmpty ? "" : "?" + query)") as? [[String: Any]])
        return Figures(totalMeters: total, dayMeters: days, pathMeters: pathMeters, entries: entries, trips: trips)
    }

    /// One import against the same files imported again under a second device name: nothing doubles.
    static func expectSameAsOneImport(_ paths: [String], once: TravelogServerApp, onceUser: UserID,
                                      twice: TravelogServerApp, twiceUser: UserID) async throws -> (one: Figures, two: Figures) {
        try await importFiles(paths, as: "phone", app: once, userID: onceUser)
        try await importFiles(paths, as: "phone", app: twice, userID: twiceUser)
        try await importFiles(paths, as: "watch", app: twice, userID: twiceUser)
        let one = try await once.makeApplication().test(.router) { try await figures($0) }
        let two = try await twice.makeApplication().test(.router) { try await figures($0) }
        #expect(one.totalMeters > 1_000, "the files move")
        // The same fixes twice: the fused track is one device's, so the figures are equal up to the
        // API's rounding (a millimetre per day).
        #expect(abs(two.totalMeters - one.totalMeters) <= 0.01 * Double(one.dayMeters.count), "\(one.totalMeters) → \(two.totalMeters)")
        #expect(Set(two.dayMeters.keys) == Set(one.dayMeters.keys))
        for (day, meters) in one.dayMeters { #expect(abs((two.dayMeters[day] ?? -1) - meters) <= 0.01, "\(day)") }
        #expect(abs(one.pathMeters - one.totalMeters) <= 0.1 && abs(two.pathMeters - two.totalMeters) <= 0.1,
                "the path's length is the statistics' distance")
        #expect(!one.entries.isEmpty && two.entries.count == one.entries.count, "\(one.entries.count) → \(two.entries.count) entries")
        #expect(two.trips.count == one.trips.count, "\(one.trips.count) → \(two.trips.count) trips")
        let oneTrips = one.trips.compactMap { $0["distanceMeters"] as? Double }.reduce(0, +)
        let twoTrips = two.trips.compactMap { $0["distanceMeters"] as? Double }.reduce(0, +)
        #expect(abs(twoTrips - oneTrips) <= 0.001 * max(1, oneTrips) + 0.1 * Double(one.trips.count))
        return (one, two)
    }

    static let ownFixture = SharedFixtures.ownFixture("TravelogServerTests/Fixtures/one-day-walk-and-drives.gpx").path
}

@Suite("One person, several devices: the figures of the fused track")
struct SeveralDevicesTests {
    @Test("a day of the project's own fixture imported under two device names: distance, path, entries and trips as one import")
    func ownFixtureTwice() async throws {
        let once = try await ServerFixture.make(withGazetteer: false)
        let twice = try await ServerFixture.make(withGazetteer: false)
        let (one, two) = try await SeveralDevices.expectSameAsOneImport(
            [SeveralDevices.ownFixture], once: once.app, onceUser: once.ada.id, twice: twice.app, twiceUser: twice.ada.id)
        print("several devices, own fixture: one import \(one.totalMeters) m, \(one.entries.count) entries, \(one.trips.count) trips;"
              + " twice \(two.totalMeters) m, \(two.entries.count) entries, \(two.trips.count) trips")
        // The generated day: a 1.8 km walk and two drives of about 9 km, with bends.
        #expect(one.totalMeters > 18_000 && one.totalMeters < 26_000, "\(one.totalMeters)")
        #expect(one.entries.count >= 4)
        #expect(two.entries.allSatisfy { ($0["device"] as? String).map { ["phone", "watch"].contains($0) } ?? true })

        // What the person sees is what an edit acts on: deleting an entry takes it away (no other
        // device's record of it comes back), a title sticks to the entry shown.
        let ids = two.entries.compactMap { $0["id"] as? Int }
        let count = two.entries.count
        try await twice.test { client in
            let first = try #require(ids.first)
            try await client.execute(uri: "/api/v1/visits/\(first)", method: .delete, headers: SeveralDevices.auth) { response in
                #expect(response.status == .noContent)
            }
            let second = try #require(ids.dropFirst().first)
            try await client.execute(uri: "/api/v1/visits/\(second)", method: .patch, headers: SeveralDevices.auth,
                                     body: ByteBuffer(string: #"{"title":"Café"}"#)) { response in
                #expect(response.status == .ok)
            }
            let after = try #require(try await SeveralDevices.get(client, "/api/v1/visits") as? [[String: Any]])
            #expect(after.count == count - 1)
            #expect(!after.contains { $0["id"] as? Int == first })
            #expect(after.first { $0["id"] as? Int == second }?["place"] as? String == "Café")
        }
    }

    @Test("real files (Reitti's GPSLogger days, Dawarich's OwnTracks month) imported under two device names: nothing doubles",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
    func sharedFixturesTwice() async throws {
        let paths = ["reitti/gpx/20250617.gpx", "reitti/gpx/20250619.gpx", "dawarich/owntracks/2024-03.rec"]
            .map { SharedFixtures.url($0).path }
        let once = try await ServerFixture.make(withGazetteer: false)
        let twice = try await ServerFixture.make(withGazetteer: false)
        let (one, two) = try await SeveralDevices.expectSameAsOneImport(
            paths, once: once.app, onceUser: once.ada.id, twice: twice.app, twiceUser: twice.ada.id)
        print("several devices, shared fixtures: one import \(one.totalMeters) m, \(one.entries.count) entries, \(one.trips.count) trips;"
              + " twice \(two.totalMeters) m, \(two.entries.count) entries, \(two.trips.count) trips")
    }

    @Test("a parent's and a child's phones on different trips at the same time: both trips and both sets of entries count")
    func parentAndChild() async throws {
        let start = Date(timeIntervalSince1970: 1_750_140_000)  // 2025-06-17T06:00:00Z
        let home = Coordinate(validLatitude: 53.8631, longitude: 10.7009)!
        let parent = GeneratedDay.commute(from: home, bearing: 90, start: start, seed: 1)
        let child = GeneratedDay.commute(from: home.destination(bearingDegrees: 200, distanceMeters: 3_000), bearing: 0,
                                         start: start, seed: 2)
        var alone: [SeveralDevices.Figures] = []
        for fixes in [parent, child] {
            let fixture = try await ServerFixture.make(withGazetteer: false)
            try await SeveralDevices.store(fixes, as: "phone", app: fixture.app, userID: fixture.ada.id)
            alone.append(try await fixture.test { try await SeveralDevices.figures($0) })
        }
        let both = try await ServerFixture.make(withGazetteer: false)
        try await SeveralDevices.store(parent, as: "phone", app: both.app, userID: both.ada.id)
        try await SeveralDevices.store(child, as: "child", app: both.app, userID: both.ada.id)
        let figures = try await both.test { try await SeveralDevices.figures($0) }
        let sum = alone[0].totalMeters + alone[1].totalMeters
        #expect(alone.allSatisfy { $0.totalMeters > 5_000 })
        #expect(abs(figures.totalMeters - sum) <= 0.01 * sum, "\(figures.totalMeters) for \(alone.map(\.totalMeters))")
        #expect(abs(figures.pathMeters - figures.totalMeters) <= 0.1)
        #expect(figures.entries.count == alone[0].entries.count + alone[1].entries.count)
        #expect(figures.trips.count == alone[0].trips.count + alone[1].trips.count)
        #expect(Set(figures.trips.compactMap { $0["device"] as? String }) == ["phone", "child"])
    }

    @Test("a phone left at home while the watch walks: the walk counts once, the phone's jitter adds about nothing")
    func phoneLeftAtHome() async throws {
        let start = Date(timeIntervalSince1970: 1_750_140_000)
        let home = Coordinate(validLatitude: 53.8631, longitude: 10.7009)!
        let walk = GeneratedDay.commute(from: home, bearing: 45, start: start, seed: 3)
        let phone = GeneratedDay.stay(at: home, start: start, seconds: walk.last!.timestamp.timeIntervalSince(start),
                                      accuracy: 25, seed: 4)
        let watchAlone = try await ServerFixture.make(withGazetteer: false)
        try await SeveralDevices.store(walk, as: "watch", app: watchAlone.app, userID: watchAlone.ada.id)
        let alone = try await watchAlone.test { try await SeveralDevices.figures($0) }
        let both = try await ServerFixture.make(withGazetteer: false)
        try await SeveralDevices.store(walk, as: "watch", app: both.app, userID: both.ada.id)
        try await SeveralDevices.store(phone, as: "phone", app: both.app, userID: both.ada.id)
        let figures = try await both.test { try await SeveralDevices.figures($0) }
        #expect(alone.totalMeters > 5_000)
        #expect(figures.totalMeters >= alone.totalMeters - 0.01 * alone.totalMeters && figures.totalMeters <= alone.totalMeters + 100,
                "\(figures.totalMeters) for a walk of \(alone.totalMeters)")
        // With a device named, that device's own track, as before.
        let watchOnly = try await both.test { try await SeveralDevices.figures($0, query: "device=watch") }
        #expect(abs(watchOnly.totalMeters - alone.totalMeters) <= 0.01)
    }

    @Test("a watch that saw a short stop the phone did not: one set of trips, adding up to the day's distance")
    func stopSeenByOneDevice() async throws {
        let start = Date(timeIntervalSince1970: 1_750_140_000)
        let home = Coordinate(validLatitude: 53.8631, longitude: 10.7009)!
        // Home an hour, 4 km east at 1.5 m/s, a stop of 5.5 minutes, 4 km on, an hour there.
        let stop = home.destination(bearingDegrees: 90, distanceMeters: 4_000)
        let end = stop.destination(bearingDegrees: 90, distanceMeters: 4_000)
        let leg: Double = 4_000 / 1.5
        let duration: Double = 3930 + 2 * leg + 3600
        func truth(_ second: Double) -> Coordinate {
            switch second {
            case ..<3600: return home
            case ..<(3600 + leg): return home.destination(bearingDegrees: 90, distanceMeters: 1.5 * (second - 3600))
            case ..<(3930 + leg): return stop
            case ..<(3930 + 2 * leg): return stop.destination(bearingDegrees: 90, distanceMeters: 1.5 * (second - 3930 - leg))
            default: return end
            }
        }
        func record(every interval: Double, accuracy: Double, seed: UInt64) -> [Location] {
            var random = SplitMix64(seed: seed)
            return stride(from: 0.0, through: duration, by: interval).map { (second: Double) -> Location in
                let bearing: Double = random.nextUnit() * 360
                let offset: Double = abs(random.gaussian()) * accuracy / 1.5
                let noisy = truth(second).destination(bearingDegrees: bearing, distanceMeters: offset)
                return Location(coordinate: noisy, horizontalAccuracyMeters: accuracy, timestamp: start.addingTimeInterval(second))
            }
        }
        let watch = record(every: 10, accuracy: 6, seed: 11), phone = record(every: 400, accuracy: 12, seed: 12)
        let alone = try await ServerFixture.make(withGazetteer: false)
        try await SeveralDevices.store(watch, as: "watch", app: alone.app, userID: alone.ada.id)
        let watchFigures = try await alone.test { try await SeveralDevices.figures($0) }
        let both = try await ServerFixture.make(withGazetteer: false)
        try await SeveralDevices.store(watch, as: "watch", app: both.app, userID: both.ada.id)
        try await SeveralDevices.store(phone, as: "phone", app: both.app, userID: both.ada.id)
        let figures = try await both.test { try await SeveralDevices.figures($0) }
        #expect(watchFigures.trips.count == 2, "the watch saw the stop")
        #expect(abs(figures.totalMeters - watchFigures.totalMeters) <= 0.02 * watchFigures.totalMeters,
                "\(figures.totalMeters) for the watch's \(watchFigures.totalMeters)")
        #expect(figures.entries.count == watchFigures.entries.count)
        let tripMeters = figures.trips.compactMap { $0["distanceMeters"] as? Double }.reduce(0, +)
        #expect(tripMeters <= figures.totalMeters * 1.01 + 1 && tripMeters >= 0.9 * figures.totalMeters,
                "trips \(tripMeters) m, day \(figures.totalMeters) m: \(figures.trips.map { "\($0["device"] ?? "") \($0["distanceMeters"] ?? "")" })")
    }

    @Test("every day of a multi-source, multi-device history: the path's length is the day's distance, its trips add up to no more")
    func daysAgree() async throws {
        let fixture = try await ServerFixture.make(withGazetteer: false)
        var paths = [SeveralDevices.ownFixture]
        if SharedFixtures.available {
            paths += ["reitti/gpx/20250531.gpx", "reitti/gpx/20250601.gpx", "reitti/gpx/20250617.gpx", "reitti/gpx/20250619.gpx",
                      "gpxpy/korita-zbevnica.gpx", "dawarich/owntracks/2024-03.rec"].map { SharedFixtures.url($0).path }
        }
        try await SeveralDevices.importFiles(paths, as: "phone", app: fixture.app, userID: fixture.ada.id)
        try await SeveralDevices.importFiles(Array(paths.prefix(3)), as: "watch", app: fixture.app, userID: fixture.ada.id)
        // A car's tracker on a day of the phone's (2025-06-19 from 06:00 UTC), from the phone's home.
        let start = Date(timeIntervalSince1970: 1_750_312_800)
        let home = Coordinate(validLatitude: 53.8631, longitude: 10.7009)!
        try await SeveralDevices.store(GeneratedDay.commute(from: home, bearing: 300, start: start, seed: 5), as: "car",
                                       app: fixture.app, userID: fixture.ada.id)
        try await fixture.test { client in
            let all = try await SeveralDevices.figures(client)
            #expect(all.dayMeters.count >= 2)
            for (day, meters) in all.dayMeters {
                let one = try await SeveralDevices.figures(client, query: "from=\(day)&to=\(day)")
                #expect(abs(one.pathMeters - meters) <= 0.1, "\(day): path \(one.pathMeters) m, day \(meters) m")
                #expect(abs(one.totalMeters - meters) <= 0.01, "\(day): the day alone \(one.totalMeters) m, in the history \(meters) m")
                let dayStart = try #require(TimeRangeBound.parse(day, timeZone: TimeZone(identifier: "UTC")!, endOfDay: false))
                let inside = one.trips.filter { trip in
                    guard let start = (trip["start"] as? String).flatMap(ISO8601DateFormatter().date(from:)),
                          let end = (trip["end"] as? String).flatMap(ISO8601DateFormatter().date(from:)) else { return false }
                    return start >= dayStart && end < dayStart.addingTimeInterval(86_400)
                }
                let tripMeters = inside.compactMap { $0["distanceMeters"] as? Double }.reduce(0, +)
                #expect(tripMeters <= meters * 1.01 + 1, "\(day): trips \(tripMeters) m, day \(meters) m: \(inside.map { "\($0["device"] ?? "") \($0["start"] ?? "")–\($0["end"] ?? "") \($0["distanceMeters"] ?? "") \($0["fromVisit"] ?? "")→\($0["toVisit"] ?? "")" })")
            }
        }
    }
}

/// Generated movement for the tests of several devices.
enum GeneratedDay {
    /// An hour at home, 40 minutes at 5 m/s out along `bearing`, two hours there, and back: a fix
    /// every 10 s with 8 m accuracy.
    static func commute(from home: Coordinate, bearing: Double, start: Date, seed: UInt64) -> [Location] {
        var random = SplitMix64(seed: seed)
        var fixes: [Location] = []
        var time = start
        let away = home.destination(bearingDegrees: bearing, distanceMeters: 12_000)
        func add(_ point: Coordinate) {
            let noisy = point.destination(bearingDegrees: random.nextUnit() * 360, distanceMeters: abs(random.gaussian()) * 5)
            fixes.append(Location(coordinate: noisy, horizontalAccuracyMeters: 8, timestamp: time))
            time = time.addingTimeInterval(10)
        }
        for _ in 0..<360 { add(home) }
        for step in 0..<240 { add(home.destination(bearingDegrees: bearing, distanceMeters: 50 * Double(step))) }
        for _ in 0..<720 { add(away) }
        for step in 0..<240 { add(away.destination(bearingDegrees: bearing + 180, distanceMeters: 50 * Double(step))) }
        for _ in 0..<360 { add(home) }
        return fixes
    }

    /// A device lying still: a fix every 30 s jittering by about `accuracy`.
    static func stay(at point: Coordinate, start: Date, seconds: Double, accuracy: Double, seed: UInt64) -> [Location] {
        var random = SplitMix64(seed: seed)
        return stride(from: 0.0, through: seconds, by: 30).map { second in
            let noisy = point.destination(bearingDegrees: random.nextUnit() * 360, distanceMeters: abs(random.gaussian()) * accuracy / 1.5)
            return Location(coordinate: noisy, horizontalAccuracyMeters: accuracy, timestamp: start.addingTimeInterval(second))
        }
    }
}
