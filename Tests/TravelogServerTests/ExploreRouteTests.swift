import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TravelogAccounts
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogServer
import TravelogStore
import TravelogTestSupport

@Suite("Where I have been: /api/v1/explore, the explored tiles, /api/v1/days")
struct ExploreRouteTests {
    static func get(_ client: some TestClientProtocol, _ uri: String, status: HTTPResponse.Status = .ok) async throws -> Any? {
        try await client.execute(uri: uri, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
            #expect(response.status == status, "\(uri): \(response.body.text.prefix(200))")
            return response.body.json
        }
    }

    @Test("a walk in Berlin: its cells and area, a fog tile clear along it, its day's figures; a wrong city is refused")
    func walk() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            // 20 fixes a minute apart, 34 m apart eastwards: 643 m, 26 cells or more.
            try await TileRouteTests.post(TileRouteTests.walk(from: 0, count: 20), fixture, client)
            let figures = try #require(try await Self.get(client, "/api/v1/explore") as? [String: Any])
            let cells = try #require(figures["cells"] as? Int)
            #expect(cells >= 26 && cells < 60, "\(cells) cells")
            let area = try #require(figures["areaSquareKilometers"] as? Double)
            #expect(abs(area - Double(cells) * 625e-6) < 0.01 * Double(cells) * 625e-6)
            let countries = try #require(figures["countries"] as? [[String: Any]])
            #expect(countries.first?["code"] as? String == "DE" && countries.first?["cells"] as? Int == cells, "\(countries)")
            // Germany's share: the walk's area over the country's (357,000 km² or so) from the world base.
            if let share = countries.first?["shareOfCountry"] as? Double, let germany = countries.first?["countryAreaSquareKilometers"] as? Double {
                #expect(abs(germany - 357_000) < 0.05 * 357_000, "Germany: \(germany) km²")
                #expect(abs(share - area / germany) < 1e-12, "\(share)")
            } else {
                Issue.record("no share of Germany's area: \(countries)")
            }
            #expect((figures["cities"] as? [[String: Any]])?.first?["name"] as? String == "Berlin")
            let berlin = try #require(try await Self.get(client, "/api/v1/explore?city=berlin") as? [String: Any])
            #expect((berlin["city"] as? [String: Any])?["cells"] as? Int == cells)
            _ = try await Self.get(client, "/api/v1/explore?city=Atlantis", status: .notFound)
            _ = try await Self.get(client, "/api/v1/explore?city=%01Berlin", status: .badRequest)
            _ = try await Self.get(client, "/api/v1/explore?city=%20", status: .badRequest)

            // The fog: painted over the tile, clear where the walk went.
            let start = MapPoint(Coordinate(validLatitude: 52.52, longitude: 13.4025)!)
            let tile = Tile(containing: start, zoom: 16)
            let png = try await client.execute(uri: "/api/v1/tiles/explored/\(tile).png", method: .get,
                                               headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .ok && response.headers[.eTag] != nil)
                return Data(response.body.readableBytesView)
            }
            let pixels = try Canvas(png: png).rgbaBytes()
            let projection = MapProjection(tile: tile)
            let at = projection.point(for: start)
            let alpha = { (x: Int, y: Int) in pixels[(y * 256 + x) * 4 + 3] }
            #expect(alpha(Int(at.x), Int(at.y)) == 0, "the walk's cell is clear")
            #expect(alpha(Int(at.x), (Int(at.y) + 120) % 256) > 100, "away from the walk the fog lies")
            _ = try await Self.get(client, "/api/v1/tiles/explored/23/0/0.png", status: .notFound)

            let days = try #require(try await Self.get(client, "/api/v1/days?timezone=Europe/Berlin") as? [String: [Any]])
            #expect(days["days"] as? [String] == ["2024-03-01"])
            #expect((days["locations"] as? [Int]) == [20])
            let meters = try #require((days["distanceMeters"] as? [Int])?.first)
            #expect(meters > 500 && meters < 800, "\(meters) m")
            #expect(days["countries"]?.count == 1)
        }
    }

    /// The countries map as the API answers it: (code, days) of its features, its list of countries without outline.
    static func countriesMap(_ client: some TestClientProtocol, user: String = "ada", password: String = ServerFixture.adaPassword)
        async throws -> (features: [[String: Any]], withoutOutline: [String], mostDays: Int) {
        try await client.execute(uri: "/api/v1/explore/countries", method: .get, headers: Auth.basic(user, password)) { response in
            #expect(response.status == .ok, "\(response.body.text.prefix(200))")
            #expect(response.headers[.contentType] == "application/geo+json")
            let map = response.body.json as? [String: Any]
            #expect(map?["type"] as? String == "FeatureCollection")
            return (map?["features"] as? [[String: Any]] ?? [], map?["withoutOutline"] as? [String] ?? [], map?["mostDays"] as? Int ?? -1)
        }
    }

    /// The whereabouts' days per country.
    static func countryDays(_ client: some TestClientProtocol) async throws -> [String: Int] {
        let whereabouts = try #require(try await get(client, "/api/v1/whereabouts") as? [String: Any])
        return Dictionary(uniqueKeysWithValues: ((whereabouts["countries"] as? [[String: Any]]) ?? []).compactMap { country in
            (country["code"] as? String).map { ($0, country["days"] as? Int ?? -1) }
        })
    }

    @Test("the countries map: the whereabouts' countries with their days, outlined as a MultiPolygon; bob's is empty")
    func countries() async throws {
        let outlines = try? WorldOutlines(contentsOf: WorldOutlines.defaultPath)
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            // 40 minutes at one spot in Berlin: a visit, so a day in Germany.
            let stay = "[" + (0..<40).map { #"{"latitude":52.52,"longitude":13.405,"time":\#(1_709_280_000 + $0 * 60)}"# }
                .joined(separator: ",") + "]"
            try await TileRouteTests.post(stay, fixture, client)
            guard let outlines, !outlines.countries.isEmpty else {
                // A server without the coded world base (make world) says so.
                _ = try await Self.get(client, "/api/v1/explore/countries", status: .notFound)
                Issue.record("\(WorldOutlines.defaultPath) has no countries' codes: run make world")
                return
            }
            #expect(try await Self.countryDays(client) == ["DE": 1])
            let map = try await Self.countriesMap(client)
            #expect(map.features.map { $0["id"] as? String } == ["DE"] && map.withoutOutline.isEmpty && map.mostDays == 1)
            let feature = try #require(map.features.first)
            #expect((feature["properties"] as? [String: Any])?["days"] as? Int == 1)
            #expect((feature["properties"] as? [String: Any])?["name"] as? String == "Germany")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "MultiPolygon")
            #expect(((geometry["coordinates"] as? [Any])?.count ?? 0) >= 1)
            let bob = try await Self.countriesMap(client, user: "bob", password: ServerFixture.bobPassword)
            #expect(bob.features.isEmpty && bob.withoutOutline.isEmpty && bob.mostDays == 0)
        }
    }

    @Test("another user's explored area is theirs: bob's is empty")
    func apart() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await TileRouteTests.post(TileRouteTests.walk(from: 0, count: 5), fixture, client)
            let figures = try await client.execute(uri: "/api/v1/explore", method: .get,
                                                   headers: Auth.basic("bob", ServerFixture.bobPassword)) { $0.body.json as? [String: Any] }
            #expect(figures?["cells"] as? Int == 0)
        }
    }
}

/// The explored cells and the days of the real-data fixtures, imported together, against an
/// independent computation.
@Suite("Where I have been on the shared fixtures", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct ExploreCorpusTests {
    static let sources = ["reitti", "dawarich", "trackintel-geolife", "owntracks", "overland", "gpxpy", "gpsbabel"]

    /// Every fix of a device in time order, as the tile index holds it (rounded to map points).
    static func fixes(_ store: any TravelogStore, _ device: Device) async throws -> [(latitude: Double, longitude: Double, seconds: Double)] {
        let found = Mutex<[(latitude: Double, longitude: Double, seconds: Double)]>([])
        try await store.forEachTrackBatch(LocationQuery(userID: device.userID, deviceIDs: [device.id]), batchSize: 10_000) { batch in
            found.withLock { found in
                for location in batch {
                    let point = MapPoint(location.coordinate)
                    let x = min(max(point.x.rounded(), 0), WebMercator.worldSizeMapPoints - 1)
                    let y = min(max(point.y.rounded(), 0), WebMercator.worldSizeMapPoints - 1)
                    found.append((WebMercator.latitudeDegrees(y: y), WebMercator.longitudeDegrees(x: x), location.timestamp.timeIntervalSince1970))
                }
            }
        }
        return found.withLock { $0 }
    }

    @Test("the API's cells are those the paths cross, counted another way (1 m steps, geodesic distances); days agree with the whereabouts and the statistics")
    func corpus() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        var devices: [Device] = []
        let importer = FileImporter(store: store)
        for source in Self.sources {
            let (device, _) = try await fixture.app.accounts.addDevice(named: source, userID: fixture.ada.id, app: nil)
            devices.append(device)
            let files = FileManager.default.enumerator(at: SharedFixtures.url(source), includingPropertiesForKeys: nil)?
                .compactMap { ($0 as? URL)?.path }.filter { !$0.hasSuffix(".md") }.sorted() ?? []
            for file in files {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                _ = await importer.importFile(at: file, deviceID: device.id, skipUnrecognized: true)
            }
        }
        for device in devices { _ = try await fixture.app.journal.processor.process(device: device) }

        // Independently: consecutive fixes of a device closer in time than an hour and slower than 70 m/s
        // (by the geodesic) are joined; points every metre along the join mark their cells.
        var dense = Set<UInt64>()
        for device in devices {
            let fixes = try await Self.fixes(store, device)
            for fix in fixes { dense.insert(ExploredCells.cell(latitude: fix.latitude, longitude: fix.longitude)) }
            for (a, b) in zip(fixes, fixes.dropFirst()) {
                let seconds = b.seconds - a.seconds
                guard seconds <= 3600, abs(b.longitude - a.longitude) < 180,
                      let from = Coordinate(validLatitude: a.latitude, longitude: a.longitude),
                      let to = Coordinate(validLatitude: b.latitude, longitude: b.longitude) else { continue }
                let meters = from.distanceMeters(to: to)
                guard meters <= 70 * max(seconds, 1) else { continue }
                let steps = Int(meters.rounded(.up))
                guard steps > 1 else { continue }
                for step in 1..<steps {
                    let fraction = Double(step) / Double(steps)
                    dense.insert(ExploredCells.cell(latitude: a.latitude + (b.latitude - a.latitude) * fraction,
                                                    longitude: a.longitude + (b.longitude - a.longitude) * fraction))
                }
            }
        }
        let loaded = try await HistoryIndexLoader.load(store: store, userID: fixture.ada.id)
        var explored = Set<UInt64>()
        loaded.index.explored.forEachCell { explored.insert($0) }
        let (ours, crossed) = (explored, dense)
        try await fixture.test { client in
            let dense = crossed
            let figures = try #require(try await ExploreRouteTests.get(client, "/api/v1/explore") as? [String: Any])
            #expect(figures["cells"] as? Int == ours.count)
            // Every cell explored lies on a path (a few on joins the geodesic rule judged the other way, at the threshold).
            let outside = ours.subtracting(dense)
            #expect(Double(outside.count) <= 0.001 * Double(ours.count), "\(outside.count) of \(ours.count) cells on no path")
            // No hole: a cell a path crosses is explored or next to one explored (half-cell steps skip clipped corners).
            func neighbours(_ cell: UInt64) -> [UInt64] {
                let box = ExploredCells.bounds(of: cell)
                let latitude = (box.north + box.south) / 2, longitude = (box.west + box.east) / 2
                let height = box.north - box.south, width = box.east - box.west
                return [(-1.0, -1.0), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)].map {
                    ExploredCells.cell(latitude: latitude + $0.0 * height, longitude: longitude + $0.1 * width)
                }
            }
            let holes = dense.subtracting(ours).filter { cell in !neighbours(cell).contains(where: ours.contains) }
            #expect(Double(holes.count) <= 0.001 * Double(dense.count), "\(holes.count) of \(dense.count) crossed cells far from any explored")
            #expect(ours.count > 10_000, "\(ours.count) cells")

            // Days: each country's days in the columns are the whereabouts' days; distances are the statistics'.
            let days = try #require(try await ExploreRouteTests.get(client, "/api/v1/days") as? [String: Any])
            let labels = try #require(days["days"] as? [String]), countries = try #require(days["countries"] as? [String])
            let meters = try #require(days["distanceMeters"] as? [Int])
            #expect(labels.count == countries.count && labels.count == meters.count && labels == labels.sorted())
            var perCountry: [String: Int] = [:]
            for text in countries where !text.isEmpty { for code in text.split(separator: ",") { perCountry[String(code), default: 0] += 1 } }
            let whereabouts = try #require(try await ExploreRouteTests.get(client, "/api/v1/whereabouts") as? [String: Any])
            let expected = Dictionary(uniqueKeysWithValues: ((whereabouts["countries"] as? [[String: Any]]) ?? []).compactMap { country in
                (country["code"] as? String).map { ($0, country["days"] as? Int ?? -1) }
            })
            #expect(!expected.isEmpty && perCountry == expected, "\(perCountry) against \(expected)")
            // The countries map: each country of the whereabouts with its days, outlined or said to have no outline.
            let map = try await ExploreRouteTests.countriesMap(client)
            var mapped: [String: Int] = [:]
            for feature in map.features {
                if let code = feature["id"] as? String { mapped[code] = (feature["properties"] as? [String: Any])?["days"] as? Int }
            }
            #expect(!mapped.isEmpty, "the fixtures' countries have outlines")
            #expect(mapped.merging(map.withoutOutline.map { ($0, expected[$0] ?? -1) }, uniquingKeysWith: { $1 }) == expected,
                    "\(mapped) and \(map.withoutOutline) against \(expected)")
            #expect(map.mostDays == expected.values.max())
            let stats = try #require(try await ExploreRouteTests.get(client, "/api/v1/stats?by=day") as? [String: Any])
            let statDays = Dictionary(uniqueKeysWithValues: ((stats["periods"] as? [[String: Any]]) ?? []).compactMap { period -> (String, Int)? in
                guard let label = period["period"] as? String, (period["locations"] as? Int ?? 0) > 0 else { return nil }
                return (label, Int((period["distanceMeters"] as? Double ?? -1).rounded()))
            })
            let ownDays = Dictionary(uniqueKeysWithValues: zip(labels, meters).filter { statDays[$0.0] != nil || $0.1 > 0 })
            #expect(ownDays == statDays)
        }
    }
}
