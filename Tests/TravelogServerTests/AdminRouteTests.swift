import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogServer
import TravelogStore

/// The administrator's routes (`/api/v1/admin/…`), disabled users, and a person's own password change.
@Suite("Administration routes")
struct AdminRouteTests {
    static let adminRoutes: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/api/v1/admin/users", nil),
        (.post, "/api/v1/admin/users", #"{"name":"carol","password":"carol-password"}"#),
        (.patch, "/api/v1/admin/users/1", #"{"disabled":true}"#),
        (.delete, "/api/v1/admin/users/1", nil),
        (.get, "/api/v1/admin/server", nil),
    ]

    static func json(_ headers: HTTPFields) -> HTTPFields { headers.adding("Content-Type", "application/json") }

    @Test("every administration route is a 401 without credentials and a 403 for anyone but an administrator, device tokens included")
    func onlyAdministrators() async throws {
        let fixture = try await ServerFixture.make()
        #expect(fixture.ada.isAdministrator && !fixture.bob.isAdministrator, "the first user is the administrator")
        let (_, writeToken) = try await fixture.app.accounts.addDevice(named: "tracker", userID: fixture.ada.id, app: nil)
        try await fixture.test { client in
            for (method, uri, body) in Self.adminRoutes {
                let buffer = body.map { ByteBuffer($0) }
                try await client.execute(uri: uri, method: method, headers: Self.json([:]), body: buffer) {
                    #expect($0.status == .unauthorized, "\(method) \(uri) without credentials")
                }
                for (who, headers) in [("bob's password", Auth.basic("bob", ServerFixture.bobPassword)),
                                       ("ada's read token", Auth.bearer(fixture.adaToken)),
                                       ("ada's write token", Auth.bearer(writeToken)),
                                       ("ada's token as Basic", Auth.basic("ada", fixture.adaToken))] {
                    try await client.execute(uri: uri, method: method, headers: Self.json(headers), body: buffer) {
                        #expect($0.status == .forbidden, "\(method) \(uri) with \(who)")
                    }
                }
            }
            // Nothing was changed by the refused requests.
            #expect(try await fixture.app.store.users().map(\.name) == ["ada", "bob"])
            #expect(try await fixture.app.store.user(id: fixture.ada.id)?.isDisabled == false)
        }
    }

    @Test("the session says whether the user is an administrator")
    func sessionSaysAdministrator() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for (name, password, administrator) in [("ada", ServerFixture.adaPassword, true), ("bob", ServerFixture.bobPassword, false)] {
                try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic(name, password)) { response in
                    #expect(response.status == .ok)
                    #expect((response.body.json as? [String: Any])?["administrator"] as? Bool == administrator, "\(name)")
                }
            }
        }
    }

    @Test("an administrator lists users with their figures, adds one, and reads the server's facts")
    func listAddAndServer() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Self.json(Auth.basic("ada", ServerFixture.adaPassword))
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Self.json(Auth.bearer(fixture.adaToken)),
                                     body: ByteBuffer(#"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"},"#
                                                      + #"{"latitude":52.6,"longitude":13.4,"timestamp":"2024-03-01T09:01:00Z"}]"#)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/admin/users", method: .post, headers: ada,
                                     body: ByteBuffer(#"{"name":"carol","password":"carol-password"}"#)) { response in
                #expect(response.status == .created)
                let carol = response.body.json as? [String: Any]
                #expect(carol?["name"] as? String == "carol")
                #expect(carol?["administrator"] as? Bool == false)
                #expect(carol?["canLogIn"] as? Bool == true)
            }
            try await client.execute(uri: "/api/v1/admin/users", method: .post, headers: ada,
                                     body: ByteBuffer(#"{"name":"carol","password":"carol-password"}"#)) { #expect($0.status == .conflict) }
            try await client.execute(uri: "/api/v1/admin/users", method: .post, headers: ada,
                                     body: ByteBuffer(#"{"name":"dave","password":"short"}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/admin/users", method: .post, headers: ada,
                                     body: ByteBuffer(#"{"name":"dave"}"#)) { #expect($0.status == .badRequest) }
            #expect(try await fixture.app.store.user(named: "dave") == nil, "nothing half-stored")
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("carol", "carol-password")) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/admin/users", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                let users = try #require(response.body.json as? [[String: Any]])
                #expect(users.map { $0["name"] as? String } == ["ada", "bob", "carol"])
                #expect(users[0]["administrator"] as? Bool == true)
                #expect(users[0]["locations"] as? Int == 2)
                #expect(users[0]["devices"] as? Int == 1)
                #expect(users[1]["locations"] as? Int == 0)
                #expect((users[0]["storageEstimateBytes"] as? Int ?? 0) > 0)
                #expect(users[1]["storageEstimateBytes"] as? Int == 0)
            }
            try await client.execute(uri: "/api/v1/admin/server", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                let server = try #require(response.body.json as? [String: Any])
                #expect(server["version"] as? String == ServerFacts.travelogVersion)
                #expect(server["users"] as? Int == 3)
                #expect(((server["database"] as? [String: Any])?["sizeBytes"] as? Int ?? 0) > 0)
            }
        }
    }

    @Test("the last enabled administrator cannot be demoted, disabled or deleted (409); with a second one it can")
    func lastAdministrator() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Self.json(Auth.basic("ada", ServerFixture.adaPassword))
        let adaURI = "/api/v1/admin/users/\(fixture.ada.id.rawValue)"
        try await fixture.test { client in
            for body in [#"{"administrator":false}"#, #"{"disabled":true}"#] {
                try await client.execute(uri: adaURI, method: .patch, headers: ada, body: ByteBuffer(body)) {
                    #expect($0.status == .conflict, "\(body)")
                }
            }
            try await client.execute(uri: adaURI, method: .delete, headers: ada) { #expect($0.status == .conflict) }
            try await client.execute(uri: adaURI, method: .patch, headers: ada, body: ByteBuffer("{}")) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/admin/users/999999", method: .patch, headers: ada,
                                     body: ByteBuffer(#"{"disabled":true}"#)) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/admin/users/\(fixture.bob.id.rawValue)", method: .patch, headers: ada,
                                     body: ByteBuffer(#"{"administrator":true}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["administrator"] as? Bool == true)
            }
            try await client.execute(uri: adaURI, method: .patch, headers: ada, body: ByteBuffer(#"{"administrator":false}"#)) {
                #expect($0.status == .ok)
            }
            // Ada is no longer one: her next request is refused.
            try await client.execute(uri: "/api/v1/admin/users", method: .get, headers: ada) { #expect($0.status == .forbidden) }
        }
    }

    @Test("a disabled user cannot log in, their device tokens and sessions are refused, their history is kept; enabled, all works again")
    func disabledUser() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Self.json(Auth.basic("ada", ServerFixture.adaPassword))
        let bobURI = "/api/v1/admin/users/\(fixture.bob.id.rawValue)"
        let point = #"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"}]"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Self.json(Auth.bearer(fixture.bobToken)),
                                     body: ByteBuffer(point)) { #expect($0.status == .ok) }
            let cookie = try await client.execute(uri: "/api/v1/session", method: .post, headers: Self.json([:]),
                                                  body: ByteBuffer(#"{"user":"bob","password":"\#(ServerFixture.bobPassword)"}"#)) { response in
                #expect(response.status == .ok)
                return try #require(response.headers[values: .setCookie].first { $0.hasPrefix("travelog_session=") }?.split(separator: ";").first)
            }
            var session = HTTPFields()
            session[.cookie] = String(cookie)
            try await client.execute(uri: bobURI, method: .patch, headers: ada, body: ByteBuffer(#"{"disabled":true}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["disabled"] as? Bool == true)
            }
            try await client.execute(uri: "/api/v1/session", method: .post, headers: Self.json([:]),
                                     body: ByteBuffer(#"{"user":"bob","password":"\#(ServerFixture.bobPassword)"}"#)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Self.json(Auth.bearer(fixture.bobToken)),
                                     body: ByteBuffer(point)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: session) { #expect($0.status == .unauthorized) }
            #expect(try await fixture.storedCount(fixture.bob) == 1, "the history is kept")
            try await client.execute(uri: bobURI, method: .patch, headers: ada, body: ByteBuffer(#"{"disabled":false}"#)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/locations", method: .get, headers: Auth.bearer(fixture.bobToken)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test("an administrator resets a password and deletes a user with all their data")
    func resetAndDelete() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Self.json(Auth.basic("ada", ServerFixture.adaPassword))
        let bobURI = "/api/v1/admin/users/\(fixture.bob.id.rawValue)"
        try await fixture.test { client in
            try await client.execute(uri: bobURI, method: .patch, headers: ada, body: ByteBuffer(#"{"password":"short"}"#)) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: bobURI, method: .patch, headers: ada, body: ByteBuffer(#"{"password":"bob-new-password"}"#)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("bob", "bob-new-password")) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Self.json(Auth.bearer(fixture.bobToken)),
                                     body: ByteBuffer(#"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"}]"#)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: bobURI, method: .delete, headers: ada) { #expect($0.status == .noContent) }
            try await client.execute(uri: bobURI, method: .delete, headers: ada) { #expect($0.status == .notFound) }
            #expect(try await fixture.app.store.user(id: fixture.bob.id) == nil)
            #expect(try await fixture.app.store.locations(LocationQuery(userID: fixture.bob.id)).isEmpty)
            try await client.execute(uri: "/api/v1/locations", method: .get, headers: Auth.bearer(fixture.bobToken)) {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test("a person changes their own password with the current one; every other login ends, the caller gets a new session")
    func changeOwnPassword() async throws {
        let fixture = try await ServerFixture.make()
        let uri = "/api/v1/account/password"
        let bob = Self.json(Auth.basic("bob", ServerFixture.bobPassword))
        try await fixture.test { client in
            let oldSession = try await fixture.app.accounts.startSession(userID: fixture.bob.id)
            try await client.execute(uri: uri, method: .post, headers: bob,
                                     body: ByteBuffer(#"{"current":"wrong-password","new":"bob-password-3"}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: uri, method: .post, headers: bob,
                                     body: ByteBuffer(#"{"current":"\#(ServerFixture.bobPassword)","new":"short"}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: uri, method: .post, headers: Self.json(Auth.bearer(fixture.bobToken)),
                                     body: ByteBuffer(#"{"current":"\#(ServerFixture.bobPassword)","new":"bob-password-3"}"#)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: uri, method: .post, headers: bob,
                                     body: ByteBuffer(#"{"current":"\#(ServerFixture.bobPassword)","new":"bob-password-3"}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("travelog_session=") })
            }
            #expect(try await fixture.app.accounts.user(session: oldSession) == nil, "other logins ended")
            try await client.execute(uri: "/api/v1/session", method: .get, headers: bob) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("bob", "bob-password-3")) {
                #expect($0.status == .ok)
            }
        }
    }
}
