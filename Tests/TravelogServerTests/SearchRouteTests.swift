import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogGeocoding
import TravelogServer
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("Local search through the API")
struct SearchRouteTests {
    /// A server with the fuzzer's seed extract (Café Regatta, Merikannontie 8; Mannerheimintie) and
    /// the fixture gazetteer (Berlin, Tokyo); ada has a place named "Dentist" visited twice.
    static func server() async throws -> (app: TravelogServerApp, ada: User, token: String, bobToken: String, dentist: PlaceID) {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("search-osm").path)
        _ = try folder.add(extractPath: SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path)
        let store = try SQLiteLocationStore(path: TestDirectory.makeFolder("search-db").appendingPathComponent("travelog.sqlite").path)
        var app = TravelogServerApp(store: store, configuration: ServerConfiguration(port: 0, bcryptCost: 4), gazetteer: try ServerFixture.gazetteer())
        let set = try folder.open()
        app.localSearch = OSMSearchIndex(places: set, streetAddresses: OSMReverseGeocoder(places: set))
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let bob = try await app.accounts.addUser(named: "bob", password: ServerFixture.bobPassword)
        let (phone, token) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .read)
        let (_, bobToken) = try await app.accounts.addDevice(named: "pixel", userID: bob.id, app: nil, scope: .read)
        let center = try Coordinate(latitude: 52.52, longitude: 13.40)
        let place = try await store.addPlace(userID: ada.id, name: "Dentist", center: center, radiusMeters: 50)
        let first = Date(timeIntervalSince1970: 1_700_000_000), second = Date(timeIntervalSince1970: 1_710_000_000)
        _ = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: first, to: nil, with: [
            JournalVisit(deviceID: phone.id, source: .detected, arrival: first, departure: first + 3600, center: center, radiusMeters: 30, locationCount: 10),
            JournalVisit(deviceID: phone.id, source: .detected, arrival: second, departure: second + 1800, center: center, radiusMeters: 30, locationCount: 8),
        ])
        let visits = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        try await store.assignPlaces(Dictionary(uniqueKeysWithValues: visits.map { ($0.id, place.id) }))
        return (app, ada, token, bobToken, place.id)
    }

    static func get(_ client: some TestClientProtocol, _ uri: String, _ token: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(uri: uri, method: .get, headers: Auth.bearer(token)) { response in
            (response.status, (response.body.json as? [String: Any]) ?? [:])
        }
    }

    @Test("\"regata\" finds Café Regatta with every key of the agreed shape, the attribution and the distance from near")
    func regatta() async throws {
        let server = try await Self.server()
        try await server.app.makeApplication().test(.router) { client in
            let (status, answer) = try await Self.get(client, "/api/v1/search?q=regata&near=60.1650,24.9377", server.token)
            #expect(status == .ok)
            #expect(answer["query"] as? String == "regata")
            #expect(answer["attribution"] as? String == "© OpenStreetMap contributors")
            let results = try #require(answer["results"] as? [[String: Any]])
            let cafe = try #require(results.first)
            #expect(Set(cafe.keys) == ["kind", "name", "address", "category", "categoryName", "latitude", "longitude", "distanceMeters",
                                       "openingHours", "website", "phone", "own", "placeID", "lastVisit", "visitCount", "source", "osmType", "osmID"])
            #expect(cafe["kind"] as? String == "poi")
            #expect(cafe["name"] as? String == "Café Regatta")
            #expect(cafe["category"] as? String == "amenity=cafe")
            #expect(cafe["categoryName"] as? String == "Café")
            #expect((cafe["address"] as? String)?.hasPrefix("Merikannontie 8") == true)
            #expect(cafe["own"] as? Bool == false)
            #expect(cafe["source"] as? String == "osm")
            #expect(cafe["osmType"] as? String == "node")
            #expect(cafe["osmID"] as? Int == 1)
            #expect(cafe["placeID"] is NSNull)
            let distance = try #require(cafe["distanceMeters"] as? Double)
            #expect(distance > 20 && distance < 60)  // 0.0002689° of latitude north: about 30 m
        }
    }

    @Test("own places first and marked: \"dentist\" finds ada's Dentist with her last visit and count; bob does not see it")
    func ownPlaces() async throws {
        let server = try await Self.server()
        try await server.app.makeApplication().test(.router) { client in
            let (_, answer) = try await Self.get(client, "/api/v1/search?q=dentist", server.token)
            let first = try #require((answer["results"] as? [[String: Any]])?.first)
            #expect(first["kind"] as? String == "place")
            #expect(first["name"] as? String == "Dentist")
            #expect(first["own"] as? Bool == true)
            #expect(first["source"] as? String == "journal")
            #expect(first["placeID"] as? Int == Int(server.dentist.rawValue))
            #expect(first["visitCount"] as? Int == 2)
            #expect(first["lastVisit"] as? String == "2024-03-09T16:00:00Z")
            #expect(answer["attribution"] is NSNull)
            let (_, bobs) = try await Self.get(client, "/api/v1/search?q=dentist", server.bobToken)
            #expect((bobs["results"] as? [[String: Any]])?.contains { $0["own"] as? Bool == true } == false)
        }
    }

    @Test("a town of the gazetteer, an address, a category filter, and no result: an empty list and 200")
    func kinds() async throws {
        let server = try await Self.server()
        try await server.app.makeApplication().test(.router) { client in
            let (_, berlin) = try await Self.get(client, "/api/v1/search?q=Berlin", server.token)
            let town = try #require((berlin["results"] as? [[String: Any]])?.first)
            #expect(town["kind"] as? String == "town" && town["source"] as? String == "gazetteer")
            let (_, address) = try await Self.get(client, "/api/v1/search?q=8%20merikannontie", server.token)
            let found = try #require((address["results"] as? [[String: Any]])?.first)
            #expect(found["kind"] as? String == "address")
            #expect(found["name"] as? String == "Merikannontie 8")
            let (_, bakery) = try await Self.get(client, "/api/v1/search?q=regatta&category=bakery", server.token)
            #expect((bakery["results"] as? [Any])?.isEmpty == true)
            let (_, cafe) = try await Self.get(client, "/api/v1/search?q=regatta&category=cafe&region=60.16,24.93,0.05&limit=1", server.token)
            #expect((cafe["results"] as? [[String: Any]])?.first?["distanceMeters"] is Double)
            let (status, none) = try await Self.get(client, "/api/v1/search?q=zzqqxxyy", server.token)
            #expect(status == .ok)
            #expect((none["results"] as? [Any])?.isEmpty == true)
            #expect(none["attribution"] is NSNull)
        }
    }

    @Test("400 for a missing, empty or over-long q, a malformed near or region, an unknown category or limit; 401 without credentials")
    func refusals() async throws {
        let server = try await Self.server()
        try await server.app.makeApplication().test(.router) { client in
            let long = String(repeating: "a", count: 201)
            for uri in ["/api/v1/search", "/api/v1/search?q=", "/api/v1/search?q=%20%20", "/api/v1/search?q=\(long)",
                        "/api/v1/search?q=cafe&near=60", "/api/v1/search?q=cafe&near=91,0", "/api/v1/search?q=cafe&near=a,b",
                        "/api/v1/search?q=cafe&region=60,24", "/api/v1/search?q=cafe&region=60,24,0", "/api/v1/search?q=cafe&region=60,24,-1",
                        "/api/v1/search?q=cafe&category=spaceport", "/api/v1/search?q=cafe&limit=0", "/api/v1/search?q=cafe&limit=x"] {
                let (status, body) = try await Self.get(client, uri, server.token)
                #expect(status == .badRequest, "\(uri)")
                #expect(body["error"] is String, "\(uri)")
            }
            try await client.execute(uri: "/api/v1/search?q=cafe", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("forward geocoding answers a street address with its street, number and postcode, in either order")
    func forwardAddress() async throws {
        let server = try await Self.server()
        try await server.app.makeApplication().test(.router) { client in
            for text in ["Merikannontie%208", "8%20merikannontie", "MERIKANNONTIE%208,%20Helsinki"] {
                try await client.execute(uri: "/api/v1/geocode/forward?q=\(text)", method: .get, headers: Auth.bearer(server.token)) { response in
                    let first = try #require((response.body.json as? [[String: Any]])?.first)
                    #expect(first["thoroughfare"] as? String == "Merikannontie", "\(text)")
                    #expect(first["subThoroughfare"] as? String == "8")
                    #expect(first["name"] as? String == "Merikannontie 8")
                }
            }
        }
    }
}
