import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogSQLite
import TravelogServer
import TravelogStore
import TravelogTestSupport

/// The first run in the browser: on a database without any account, the one-time link `travelog
/// serve` prints creates the first account; without it nobody can claim the server, and it works once.
@Suite("First run: the one-time setup link")
struct FirstRunSetupTests {
    static let token = "first-run-token-0123456789abcdefghijklmnopqr"

    /// A server on an empty SQLite database with a setup link (or none).
    static func emptyServer(withLink: Bool = true) throws -> TravelogServerApp {
        let path = TestDirectory.url.appendingPathComponent("setup-\(UUID().uuidString)/travelog.sqlite").path
        var app = TravelogServerApp(store: try SQLiteLocationStore(path: path),
                                    configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        if withLink { app.firstRun = FirstRunSetup(token: token) }
        return app
    }

    static func body(token: String = token, user: String = "ada", password: String = "a-good-password") -> ByteBuffer {
        ByteBuffer(string: #"{"token":"\#(token)","user":"\#(user)","password":"\#(password)"}"#)
    }

    static let json: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Requested-With")!: "fetch"]

    @Test("the link creates the first account, logs it in, and is used up")
    func createsOnce() async throws {
        let app = try Self.emptyServer()
        #expect(app.firstRun?.path == "/#setup=\(Self.token)")
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/setup", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"linkPrinted":true,"needed":true}"#)
            }
            let cookies = try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json, body: Self.body()) { response in
                #expect(response.status == .created)
                #expect(String(buffer: response.body).contains(#""user":"ada""#))
                return response.headers[values: .setCookie]
            }
            let session = try #require(cookies.first { $0.hasPrefix("travelog_session=") })
            #expect(session.contains("HttpOnly"))
            #expect(cookies.contains { $0.hasPrefix("travelog_signed_in=1") })
            // The session works: the new account reads its (empty) devices.
            try await client.execute(uri: "/api/v1/session", method: .get,
                                     headers: [.cookie: String(session.split(separator: ";")[0])]) { response in
                #expect(response.status == .ok)
            }
            // Used up: neither the same link nor another claim works now.
            try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json,
                                     body: Self.body(user: "mallory")) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/setup", method: .get) { response in
                #expect(String(buffer: response.body) == #"{"linkPrinted":false,"needed":false}"#)
            }
        }
        #expect(try await app.store.users().map(\.name) == ["ada"])
        #expect(app.firstRun?.isOpen == false)
    }

    @Test("without the token, with a wrong or a guessed one, nobody claims the server")
    func wrongTokens() async throws {
        let app = try Self.emptyServer()
        try await app.makeApplication().test(.router) { client in
            for token in ["", "x", String(Self.token.dropLast()) + "s", Self.token + "x", Self.token.uppercased()] {
                try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json,
                                         body: Self.body(token: token)) { response in
                    #expect(response.status == .forbidden, "token \(token)")
                    #expect(String(buffer: response.body).contains("setup link"))
                }
            }
            try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json,
                                     body: ByteBuffer(string: #"{"user":"ada","password":"a-good-password"}"#)) { response in
                #expect(response.status == .badRequest)
            }
        }
        #expect(try await app.store.users().isEmpty)
        #expect(app.firstRun?.isOpen == true, "failed guesses do not use the link up")
    }

    @Test("a password that is too short is refused and the link still works")
    func shortPassword() async throws {
        let app = try Self.emptyServer()
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json,
                                     body: Self.body(password: "short")) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("too short"))
            }
            try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json, body: Self.body()) { response in
                #expect(response.status == .created)
            }
        }
        #expect(try await app.store.users().count == 1)
    }

    @Test("once an account exists (made with the CLI meanwhile), the link creates no second one")
    func accountMadeElsewhere() async throws {
        let app = try Self.emptyServer()
        _ = try await app.accounts.addUser(named: "bob", password: "bobs-password")
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/setup", method: .get) { response in
                #expect(String(buffer: response.body) == #"{"linkPrinted":false,"needed":false}"#)
            }
            try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json, body: Self.body()) { response in
                #expect(response.status == .conflict)
            }
        }
        #expect(try await app.store.users().map(\.name) == ["bob"])
    }

    @Test("a server started without a link (accounts exist) refuses every claim")
    func noLink() async throws {
        let app = try Self.emptyServer(withLink: false)
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/setup", method: .get) { response in
                #expect(String(buffer: response.body) == #"{"linkPrinted":false,"needed":true}"#)
            }
            try await client.execute(uri: "/api/v1/setup", method: .post, headers: Self.json, body: Self.body()) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test("a claim another site's page sends is refused (as a login is)")
    func crossSite() async throws {
        let app = try Self.emptyServer()
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/setup", method: .post,
                                     headers: [.contentType: "application/json", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
                                     body: Self.body()) { response in
                #expect(response.status == .forbidden)
            }
        }
        #expect(try await app.store.users().isEmpty)
    }
}
