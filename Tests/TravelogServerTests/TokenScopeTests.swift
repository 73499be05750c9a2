import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogSQLite
import TravelogAccounts
import TravelogServer
import TravelogStore
import TravelogTestSupport

@Suite("Device token scopes")
struct TokenScopeTests {
    static let readRoutes = ["/api/v1/locations", "/api/v1/path?from=2024-03-01&to=2024-03-02&zoom=10", "/api/v1/latest",
                             "/api/v1/devices", "/api/v1/stats", "/api/v1/export?format=gpx", "/api/v1/visits", "/api/v1/trips",
                             "/api/v1/places", "/api/v1/session", "/api/v1/notifications/log"]

    @Test("a phone's token stores its locations and OwnTracks friends, but reads no history; a read token and the password do")
    func writeTokenCannotRead() async throws {
        let fixture = try await ServerFixture.make()
        let (_, phoneToken) = try await fixture.app.accounts.addDevice(named: "tracker", userID: fixture.ada.id, app: .owntracks)
        let (_, scriptToken) = try await fixture.app.accounts.addDevice(named: "dashboard", userID: fixture.ada.id, app: nil, scope: .read)
        let point = #"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"}]"#
        let owntracks = #"{"_type":"location","lat":52.5,"lon":13.41,"tst":1709283700,"tid":"tr"}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(phoneToken),
                                     body: ByteBuffer(point)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", phoneToken),
                                     body: ByteBuffer(owntracks)) { #expect($0.status == .ok) }
            for path in Self.readRoutes {
                try await client.execute(uri: path, method: .get, headers: Auth.bearer(phoneToken)) {
                    #expect($0.status == .forbidden, "\(path) with a phone's token")
                }
                try await client.execute(uri: path + (path.contains("?") ? "&" : "?") + "token=\(phoneToken)", method: .get) {
                    #expect($0.status == .forbidden, "\(path)?token= with a phone's token")
                }
                try await client.execute(uri: path, method: .get, headers: Auth.bearer(scriptToken)) {
                    #expect($0.status != .forbidden || path.hasPrefix("/api/v1/notifications") || path == "/api/v1/session",
                            "\(path) with a read token")
                }
                try await client.execute(uri: path, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                    #expect($0.status == .ok, "\(path) with the password")
                }
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 2)
    }

    @Test("a database from before scopes keeps its tokens, as write tokens")
    func migration() async throws {
        let path = TestDirectory.makeFolder("scopes").appendingPathComponent("travelog.sqlite").path
        let store = try SQLiteLocationStore(path: path)
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        #expect(phone.tokenScope == .write)
        try await store.setTokenScope(.read, deviceID: phone.id)
        #expect(try await SQLiteLocationStore(path: path).device(id: phone.id)?.tokenScope == .read)
    }
}
