import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogJournal
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// Issue 28, item 5: the journal names the point of interest a visit was at, and its address, from
/// the OSM extracts added; entries described before an extract was added are described anew
/// without undoing the person's decisions.
@Suite("The journal names the place: points of interest and addresses from OSM extracts")
struct VisitPlaceNamingTests {
    /// The fuzzer's seed extract (written by osmium): Café Regatta, Merikannontie 8, at 60.1647366, 24.9377736.
    static let cafe = Coordinate(validLatitude: 60.1647366, longitude: 24.9377736)!
    /// About 1 km north-west, outside the extract's places: an address-less stay.
    static let elsewhere = Coordinate(validLatitude: 60.1720, longitude: 24.9250)!
    static let day = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z

    static func gazetteer() throws -> Gazetteer {
        let finland = try GazetteerCountry(code: "FI", alpha3Code: "FIN", name: "Finland")
        let helsinki = GazetteerPlace(name: "Helsinki", asciiName: "Helsinki", administrativeArea: "Uusimaa", subAdministrativeArea: "",
                                      country: finland, timeZoneIdentifier: "Europe/Helsinki", population: 558_457,
                                      coordinate: Coordinate(validLatitude: 60.16952, longitude: 24.93545)!)
        return try Gazetteer(bytes: Gazetteer.encode([helsinki]), path: "test-gazetteer")
    }

    static func seedExtract() throws -> OSMReverseGeocoder {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("naming-osm").path)
        _ = try folder.add(extractPath: SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path)
        return OSMReverseGeocoder(places: try folder.open())
    }

    static func prepared() async throws -> (SQLiteLocationStore, Device) {
        let store = try SQLiteLocationStore(path: TestDirectory.makeFolder("naming-db").appendingPathComponent("db.sqlite").path)
        let user = try await store.addUser(named: "ada")
        return (store, try await store.addDevice(named: "phone", userID: user.id))
    }

    /// A point `east` and `north` metres from `origin` (a local plane: exact enough over a few hundred metres).
    static func offset(_ origin: Coordinate, east: Double, north: Double) -> Coordinate {
        let metresPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
        return Coordinate(validLatitude: origin.latitude + north / metresPerDegree,
                          longitude: origin.longitude + east / (metresPerDegree * cos(origin.latitude * .pi / 180)))!
    }

    /// Stays of an hour each (a fix a minute, ±8 m of jitter) at `places`, with a 20-minute walk between.
    static func stays(at places: [Coordinate]) -> [Location] {
        var random = SplitMix64(seed: 28)
        var fixes: [Location] = []
        var time = day.addingTimeInterval(8 * 3600)
        for (index, place) in places.enumerated() {
            for _ in 0..<60 {
                let east = Double(random.next() % 1600) / 100 - 8, north = Double(random.next() % 1600) / 100 - 8
                fixes.append(Location(coordinate: offset(place, east: east, north: north), horizontalAccuracyMeters: 10, timestamp: time))
                time += 60
            }
            guard index + 1 < places.count else { continue }
            for minute in 1...20 {
                let t = Double(minute) / 21, next = places[index + 1]
                fixes.append(Location(coordinate: Coordinate(validLatitude: place.latitude + (next.latitude - place.latitude) * t,
                                                             longitude: place.longitude + (next.longitude - place.longitude) * t)!,
                                      horizontalAccuracyMeters: 10, timestamp: time))
                time += 60
            }
        }
        return fixes
    }

    static func entries(_ store: SQLiteLocationStore, _ device: Device, hidden: Bool = false) async throws -> [JournalEntry] {
        try await JournalReader(store: store).entries(userID: device.userID, from: nil, to: nil, includeHidden: hidden)
    }

    @Test("a stay beside the café is titled with the café, with its address and town; a stay without one keeps the town")
    func stayAtTheCafe() async throws {
        let (store, device) = try await Self.prepared()
        _ = try await store.insert(Self.stays(at: [Self.offset(Self.cafe, east: 12, north: -9), Self.elsewhere])
            .map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
        let describer = GazetteerDescriber(gazetteer: try Self.gazetteer(), streetLevel: try Self.seedExtract())
        _ = try await JournalProcessor(store: store, describer: describer).process(device: device)
        let entries = try await Self.entries(store, device)
        try #require(entries.count == 2, "two stays: \(entries.map(\.place))")
        #expect(entries[0].place == "Café Regatta")
        #expect(entries[0].poi == "Café Regatta")
        #expect(entries[0].poiCategory == "amenity=cafe")
        #expect(entries[0].address == "Merikannontie 8, Helsinki")
        #expect(entries[0].locality == "Helsinki")
        #expect(entries[1].poi == nil, "no point of interest within 150 m")
        #expect(entries[1].place.hasPrefix("Helsinki") || entries[1].place == entries[1].address, "\(entries[1].place)")
    }

    @Test("adding an extract describes the journal anew: the person's title, deletion and merge stay; a second pass changes nothing")
    func describedAnewKeepingDecisions() async throws {
        let (store, device) = try await Self.prepared()
        let near = Self.offset(Self.cafe, east: -6, north: 10)
        _ = try await store.insert(Self.stays(at: [near, Self.elsewhere, near, Self.elsewhere])
            .map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
        let gazetteerOnly = JournalProcessor(store: store, describer: GazetteerDescriber(gazetteer: try Self.gazetteer()))
        _ = try await gazetteerOnly.process(device: device)
        let before = try await Self.entries(store, device)
        try #require(before.count == 4, "\(before.map(\.place))")
        #expect(before.allSatisfy { $0.poi == nil && $0.place.hasPrefix("Helsinki") }, "\(before.map(\.place))")
        let editor = JournalEditor(store: store)
        _ = try await editor.rename(visit: VisitID(rawValue: before[0].id), userID: device.userID, title: "Breakfast with Sam")
        try await editor.deleteShown(visit: VisitID(rawValue: before[2].id), userID: device.userID)
        #expect(try await gazetteerOnly.describeStale(userID: device.userID) == 0, "described with the same data: nothing to do")

        let withExtract = JournalProcessor(store: store, describer: GazetteerDescriber(gazetteer: try Self.gazetteer(),
                                                                                    streetLevel: try Self.seedExtract()))
        #expect(try await withExtract.describeStale(userID: device.userID) == 4, "every entry was described with other data")
        #expect(try await withExtract.describeStale(userID: device.userID) == 0, "nothing is described twice")
        let after = try await Self.entries(store, device, hidden: true)
        try #require(after.count == 4)
        #expect(after.map(\.id) == before.map(\.id), "the same entries, not new ones")
        #expect(after[0].place == "Breakfast with Sam", "the person's title wins")
        #expect(after[0].poi == "Café Regatta", "and the entry knows the café")
        #expect(after[2].hidden, "the deletion stays")
        #expect(after[2].place == "Café Regatta")
        #expect(after[1].poi == nil && after[3].poi == nil)
        // Processing again (new fixes arrive) keeps all of it.
        _ = try await withExtract.process(device: device, from: nil, to: nil)
        let again = try await Self.entries(store, device, hidden: true)
        #expect(again.map(\.place) == after.map(\.place))
        #expect(again.map(\.hidden) == after.map(\.hidden))
    }

    @Test("a bench or a parking place is never a stay's name, a café weighs more than a shop; a café 20 m off is found, 200 m off is not")
    func stayWeights() throws {
        #expect(OSMStayCategories.weight("amenity=bench") == 0)
        #expect(OSMStayCategories.weight("amenity=parking") == 0)
        #expect(OSMStayCategories.weight("amenity=cafe") > OSMStayCategories.weight("shop=clothes"))
        let geocoder = try Self.seedExtract()
        let at = geocoder.pointOfInterest(forVisitAt: Self.offset(Self.cafe, east: 20, north: 0), radiusMeters: 25)
        #expect(at?.place.name == "Café Regatta")
        #expect(abs((at?.distanceMeters ?? 0) - 20) < 0.5)
        #expect(geocoder.pointOfInterest(forVisitAt: Self.offset(Self.cafe, east: 200, north: 0), radiusMeters: 25) == nil,
                "200 m off is beyond any visit's search radius")
    }

    /// Every café, restaurant and bar of the real Helsinki extract (`make osm-sample`), with a stay
    /// centred 5 m from it in one of eight directions: how often is it named after it? The city
    /// centre is dense (two nodes for one restaurant, a bar next door), so not always: 92.5 % when
    /// this was written; 15 m off, where the neighbour is often nearer and rightly wins, 45 %.
    @Test("on the Helsinki extract, a stay at a café, restaurant or bar is named after it (≥ 90 %)",
          .enabled(if: BuildData.exists("Helsinki.osm.pbf"), BuildData.absentReason("Helsinki.osm.pbf", goal: "osm-sample",
                                                                                    checks: "naming visits on a real city's places")))
    func helsinkiCafes() throws {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("naming-helsinki").path)
        let file = try folder.add(extractPath: BuildData.path("Helsinki.osm.pbf"))
        let geocoder = OSMReverseGeocoder(places: try folder.open())
        var tried = 0, named = 0, misses: [String] = []
        for index in 0..<file.count {
            let place = file.place(at: index)
            guard ["amenity=cafe", "amenity=restaurant", "amenity=bar", "amenity=pub"].contains(place.category ?? ""),
                  let name = place.name else { continue }
            for direction in 0..<8 {
                let angle = Double(direction) * .pi / 4
                let center = Self.offset(place.coordinate, east: 5 * sin(angle), north: 5 * cos(angle))
                tried += 1
                let found = geocoder.pointOfInterest(forVisitAt: center, radiusMeters: 30)
                if found?.place.name == name { named += 1 } else if misses.count < 5 { misses.append("\(name) → \(found?.place.name ?? "none")") }
            }
        }
        let share = Double(named) / Double(max(tried, 1))
        print("Helsinki: \(named) of \(tried) stays 5 m from a café, restaurant or bar named after it (\(String(format: "%.1f", share * 100)) %)")
        #expect(tried > 400, "the extract has its cafés and restaurants: \(tried)")
        #expect(share >= 0.90, "\(misses)")
    }

    /// A real GPSLogger day (Reitti's fixture, Lübeck), moved so that its church visit lies beside
    /// the café: real jitter, real gaps, real walks.
    @Test("a visit of a real recorded day, placed at the café, is titled with the café",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
    func realDayPlacedAtTheCafe() async throws {
        let text = try String(contentsOf: SharedFixtures.url("reitti/gpx/20250617.gpx"), encoding: .utf8)
        let point = try Regex(#"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">.*?<time>([^<]+)</time>"#).dotMatchesNewlines()
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // St. Thomas church (Reitti's expected visits), moved to 15 m east of the café.
        let church = Coordinate(validLatitude: 53.86813491042206, longitude: 10.71152842314665)!
        let target = Self.offset(Self.cafe, east: 15, north: 0)
        let metresPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
        var fixes: [Location] = []
        for match in text.matches(of: point) {
            guard let latitude = Double(match.output[1].substring ?? ""), let longitude = Double(match.output[2].substring ?? ""),
                  let time = iso.date(from: String(match.output[3].substring ?? "")) else { continue }
            let east = (longitude - church.longitude) * metresPerDegree * cos(church.latitude * .pi / 180)
            let north = (latitude - church.latitude) * metresPerDegree
            fixes.append(Location(coordinate: Self.offset(target, east: east, north: north), horizontalAccuracyMeters: 20, timestamp: time))
        }
        try #require(fixes.count > 2000, "the day's fixes: \(fixes.count)")
        let (store, device) = try await Self.prepared()
        _ = try await store.insert(fixes.map { StoredLocation(deviceID: device.id, location: $0, source: .api) })
        let describer = GazetteerDescriber(gazetteer: try Self.gazetteer(), streetLevel: try Self.seedExtract())
        _ = try await JournalProcessor(store: store, describer: describer).process(device: device)
        let entries = try await Self.entries(store, device)
        let atChurch = entries.filter { Coordinate(validLatitude: $0.latitude, longitude: $0.longitude)!.distanceMeters(to: target) < 100 }
        try #require(!atChurch.isEmpty, "the church visit is detected: \(entries.map { "\($0.place) \($0.latitude),\($0.longitude)" })")
        #expect(atChurch.allSatisfy { $0.place == "Café Regatta" },
                "\(atChurch.map { "\($0.place) \($0.radius) m at \(Coordinate(validLatitude: $0.latitude, longitude: $0.longitude)!.distanceMeters(to: Self.cafe)) m" })")
        #expect(entries.filter { $0.place == "Café Regatta" }.count == atChurch.count, "only the visits there are the café's")
    }
}
