import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogServer
import TravelogStore

@Suite("Share links")
struct ShareRouteTests {
    static let ada = Auth.basic("ada", ServerFixture.adaPassword)
    static let bob = Auth.basic("bob", ServerFixture.bobPassword)
    /// Three fixes on 2 May 2024 and two on 3 May.
    static let twoDays = UploadRouteTests.csv + "2024-05-03T10:00:00Z,48.3,11.7\n2024-05-03T10:05:00Z,48.31,11.71\n"

    static func json(_ headers: HTTPFields) -> HTTPFields { headers.adding("Content-Type", "application/json") }

    static func upload(_ client: some TestClientProtocol, _ csv: String, headers: HTTPFields = ada) async throws {
        try await client.execute(uri: "/api/v1/imports?filename=walk.csv&device=imports", method: .post, headers: headers,
                                 body: ByteBuffer(csv)) { #expect($0.status == .ok) }
    }

    /// Makes a link through the API; returns its answer.
    static func create(_ client: some TestClientProtocol, _ body: String, headers: HTTPFields = ada) async throws -> [String: Any] {
        try await client.execute(uri: "/api/v1/shares", method: .post, headers: json(headers), body: ByteBuffer(body)) { response in
            #expect(response.status == .created, "\(response.body.text)")
            return try #require(response.body.json as? [String: Any])
        }
    }

    @Test("a day's link shows that day's path and entries to anyone, nothing of the day after, with noindex and no referrer")
    func dayLink() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.upload(client, Self.twoDays)
            let made = try await Self.create(client, #"{"kind":"day","day":"2024-05-02","title":"A walk","url":"https://t.example/"}"#)
            let token = try #require(made["token"] as? String)
            #expect(token.count == 22 && ShareLinks.isTokenShaped(token))
            #expect(made["url"] as? String == "https://t.example/s/\(token)")
            #expect(made["path"] as? String == "/s/\(token)")
            #expect(made["from"] as? String == "2024-05-02T00:00:00Z" && made["to"] as? String == "2024-05-03T00:00:00Z")
            #expect(made["status"] as? String == "active" && made["views"] as? Int == 0)
            // The store has only the digest.
            #expect(try await fixture.app.store.share(tokenDigest: Secrets.digest(token))?.id.rawValue == made["id"] as? Int64)
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Robots-Tag")!]?.contains("noindex") == true)
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                #expect(response.body.text.contains(#"<meta name="robots" content="noindex"#))
            }
            try await client.execute(uri: "/api/v1/s/\(token)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Robots-Tag")!]?.contains("noindex") == true)
                #expect(response.headers[.cacheControl] == "no-store")
                let view = try #require(response.body.json as? [String: Any])
                #expect(view["locked"] as? Bool == false && view["title"] as? String == "A walk" && view["kind"] as? String == "day")
                #expect(view["user"] == nil && view["device"] == nil)
            }
            try await client.execute(uri: "/api/v1/s/\(token)/path?zoom=14", method: .get) { response in
                #expect(response.status == .ok)
                let path = try #require(response.body.json as? [String: Any])
                #expect((path["properties"] as? [String: Any])?["rawPointCount"] as? Int == 3, "only the shared day's fixes")
                let feature = try #require((path["features"] as? [[String: Any]])?.first)
                #expect((feature["properties"] as? [String: Any])?["device"] as? String == "", "no device names")
            }
            try await client.execute(uri: "/api/v1/s/\(token)/journal", method: .get) { #expect($0.status == .ok && $0.body.json is [Any]) }
            try await client.execute(uri: "/api/v1/s/\(token)/latest", method: .get) { #expect($0.status == .notFound) }
            // The owner sees the view; bob sees no link; a device token cannot list or make links.
            try await client.execute(uri: "/api/v1/shares", method: .get, headers: Self.ada) { response in
                let listed = try #require(response.body.json as? [[String: Any]])
                #expect(listed.count == 1 && listed.first?["views"] as? Int == 1 && listed.first?["token"] == nil)
            }
            try await client.execute(uri: "/api/v1/shares", method: .get, headers: Self.bob) { #expect(($0.body.json as? [Any])?.isEmpty == true) }
            try await client.execute(uri: "/api/v1/shares", method: .get, headers: Auth.bearer(fixture.adaToken)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/shares", method: .post, headers: Self.json(Auth.bearer(fixture.adaToken)),
                                     body: ByteBuffer(#"{"kind":"day","day":"2024-05-02"}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/shares", method: .get) { #expect($0.status == .unauthorized) }
        }
    }

    @Test("a past range's path is kept: visitors get it without reading the fixes again; a fix added to the range, a fix deleted or a privacy zone drawn makes it anew")
    func keptPath() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let kept = try #require(store as? any FigureCacheStore)
        try await fixture.test { client in
            try await Self.upload(client, Self.twoDays)
            let made = try await Self.create(client, #"{"kind":"range","from":"2024-05-02","to":"2024-05-03"}"#)
            let token = try #require(made["token"] as? String), id = try #require(made["id"] as? Int64)
            func path() async throws -> [String: Any] {
                try await client.execute(uri: "/api/v1/s/\(token)/path?zoom=14", method: .get) { response in
                    #expect(response.status == .ok && response.headers[.cacheControl] == "no-store")
                    return try #require(response.body.json as? [String: Any])
                }
            }
            func raw(_ answer: [String: Any]) -> Int? { (answer["properties"] as? [String: Any])?["rawPointCount"] as? Int }
            let first = try await path()
            #expect(raw(first) == 5)
            #expect(NSDictionary(dictionary: try await path()).isEqual(to: first), "the same answer again")
            // Kept: a payload changed under its own key is what a visitor gets.
            let slot = Int(id) * 32 + 14
            let found = try #require(try await kept.cachedFigures(userID: fixture.ada.id, kind: "share-path", slots: slot...slot)[slot])
            let changed = String(decoding: found.payload, as: UTF8.self).replacingOccurrences(of: #""rawPointCount":5"#, with: #""rawPointCount":55"#)
            try await kept.storeCachedFigures(userID: fixture.ada.id, kind: "share-path", [slot: CachedFigures(key: found.key, payload: Data(changed.utf8))])
            #expect(raw(try await path()) == 55, "read from what was kept")
            // A fix added inside the range: drawn anew.
            try await Self.upload(client, "time,latitude,longitude\n2024-05-03T11:00:00Z,48.32,11.72\n")
            #expect(raw(try await path()) == 6)
            // A fix deleted: anew.
            let imports = try #require(try await store.devices(userID: fixture.ada.id).first { $0.name == "imports" })
            let added = StoredLocation(deviceID: imports.id, location: Location(coordinate: Coordinate(validLatitude: 48.32, longitude: 11.72)!,
                                                                                 horizontalAccuracyMeters: 0,
                                                                                 timestamp: ISO8601DateFormatter().date(from: "2024-05-03T11:00:00Z")!),
                                       source: .fileImport)
            #expect(try await store.deleteLocations([added.key], userID: fixture.ada.id) == 1)
            #expect(raw(try await path()) == 5)
            // A zone drawn around the first fixes hides them at once.
            let zone = try ZoneDefinition(name: "Home", shape: .circle(Circle(center: Coordinate(latitude: 48.2, longitude: 11.6), radiusMeters: 300)),
                                          rule: .hide)
            _ = try await store.addZone(zone, userID: fixture.ada.id, at: Date())
            #expect(raw(try await path()) == 4)
        }
    }

    @Test("bad requests are precise 400s and make no link", arguments: [
        #"{"kind":"week"}"#, #"{"kind":"day"}"#, #"{"kind":"day","day":"2024-13-40"}"#,
        #"{"kind":"range","from":"2024-05-03","to":"2024-05-01"}"#, #"{"kind":"range","from":"2020-01-01","to":"2024-01-01"}"#,
        #"{"kind":"day","day":"2024-05-02","expires":"2001-01-01"}"#, #"{"kind":"day","day":"2024-05-02","expires":"soon"}"#,
        #"{"kind":"live","forSeconds":1e300}"#, #"{"kind":"live","forSeconds":5}"#, #"{"kind":"day","day":"2024-05-02","password":"short"}"#,
        #"{"kind":"day","day":"2024-05-02","title":"a\u0007b"}"#, #"{"kind":"day","day":"2024-05-02","timezone":"Mars/Olympus"}"#,
        #"{"kind":"day","day":"2024-05-02","url":"javascript:alert(1)"}"#, #"{"kind":"day","day":"2024-05-02","expiresInSeconds":-5}"#,
        #"[]"#,
    ])
    func refused(body: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/shares", method: .post, headers: Self.json(Self.ada), body: ByteBuffer(body)) { response in
                #expect(response.status == .badRequest, "\(body): \(response.status) \(response.body.text)")
                #expect((response.body.json as? [String: Any])?["error"] is String)
            }
            #expect(try await fixture.app.store.shares(userID: fixture.ada.id).isEmpty)
            try await client.execute(uri: "/api/v1/shares", method: .post, headers: Self.json(Self.ada),
                                     body: ByteBuffer(#"{"kind":"trip","trip":12345}"#)) { #expect($0.status == .notFound) }
        }
    }

    @Test("revoked at once (410), expired on time (410), guessed (404); bob cannot revoke ada's link")
    func revokedExpiredGuessed() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.upload(client, Self.twoDays)
            let made = try await Self.create(client, #"{"kind":"range","from":"2024-05-02","to":"2024-05-03","expires":"never"}"#)
            let token = try #require(made["token"] as? String), id = try #require(made["id"] as? Int)
            #expect(made["expiresAt"] == nil)
            try await client.execute(uri: "/api/v1/s/\(token)/path", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/shares/\(id)", method: .delete, headers: Self.bob) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/shares/\(id)", method: .delete, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/shares/\(id)", method: .delete, headers: Self.ada) { #expect($0.status == .noContent) }
            for path in ["/s/\(token)", "/api/v1/s/\(token)", "/api/v1/s/\(token)/path", "/api/v1/s/\(token)/journal"] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .gone, "\(path)") }
            }
            try await client.execute(uri: "/api/v1/shares", method: .get, headers: Self.ada) {
                #expect(($0.body.json as? [[String: Any]])?.first?["status"] as? String == "revoked")
            }
            // Expired: a link whose time has passed (written to the store directly: the API refuses a past expiry).
            let expired = ShareLinks.newToken()
            _ = try await fixture.app.store.addShare(
                ShareRecord(userID: fixture.ada.id, kind: .day, from: Date(timeIntervalSince1970: 1_714_608_000),
                            to: Date(timeIntervalSince1970: 1_714_694_400), createdAt: Date(timeIntervalSinceNow: -7200),
                            expiresAt: Date(timeIntervalSinceNow: -1)), tokenDigest: Secrets.digest(expired))
            for path in ["/s/\(expired)", "/api/v1/s/\(expired)", "/api/v1/s/\(expired)/path"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .gone, "\(path)")
                    if path.hasPrefix("/api") { #expect(response.body.text.contains("expired")) }
                }
            }
            for guess in [ShareLinks.newToken(), "x", String(repeating: "A", count: 500), "..%2f..%2fetc"] {
                try await client.execute(uri: "/api/v1/s/\(guess)/path", method: .get) { #expect($0.status == .notFound, "\(guess)") }
            }
        }
    }

    @Test("a share token is no credential anywhere else: every API route, with it as Bearer, Basic, ?token= or in the path, reads and writes nothing")
    func tokenReadsNothingElse() async throws {
        let fixture = try await ServerFixture.make()
        let routes = fixture.app.routeList
        try await fixture.test { client in
            try await Self.upload(client, Self.twoDays)
            let token = try #require(try await Self.create(client, #"{"kind":"day","day":"2024-05-02"}"#)["token"] as? String)
            let revoked = try await Self.create(client, #"{"kind":"day","day":"2024-05-03"}"#)
            let revokedToken = try #require(revoked["token"] as? String)
            let revokedID = try #require(revoked["id"] as? Int)
            try await client.execute(uri: "/api/v1/shares/\(revokedID)", method: .delete, headers: Self.ada) { _ in }
            let expiredToken = ShareLinks.newToken()
            _ = try await fixture.app.store.addShare(
                ShareRecord(userID: fixture.ada.id, kind: .day, from: Date(timeIntervalSince1970: 1_714_608_000),
                            to: Date(timeIntervalSince1970: 1_714_694_400), createdAt: Date(timeIntervalSinceNow: -7200),
                            expiresAt: Date(timeIntervalSinceNow: -1)), tokenDigest: Secrets.digest(expiredToken))
            var checked = 0
            for secret in [token, revokedToken, expiredToken, ShareLinks.newToken()] {
                for route in routes where route.path.hasPrefix("/api/v1/") && !route.path.hasPrefix("/api/v1/s/") {
                    let path = route.path.replacingOccurrences(of: "{token}", with: secret)
                        .replacingOccurrences(of: #"\{[a-z]+\}"#, with: "1", options: .regularExpression)
                        .replacingOccurrences(of: "**", with: "1")
                    for headers in [Auth.bearer(secret), Auth.basic("ada", secret), HTTPFields()] {
                        let uri = headers.isEmpty ? path + (path.contains("?") ? "&" : "?") + "token=\(secret)" : path
                        try await client.execute(uri: uri, method: HTTPRequest.Method(route.method)!, headers: Self.json(headers),
                                                 body: ByteBuffer("{}")) { response in
                            // Refused as a credential (401), or a route that answers everyone alike (the
                            // first-run setup's, the server's status): never a 2xx with ada's data.
                            let answer = response.body.text
                            #expect(!answer.contains("48.2") && !answer.contains("walk.csv") && !answer.contains("\"phone\""),
                                    "\(route.method) \(route.path): \(response.status) \(answer.prefix(200))")
                            if response.status.code < 300 { #expect(!route.path.hasPrefix("/api/v1/shares"), "\(route.path)") }
                            if headers[.authorization] != nil || uri.contains("token=") {
                                // 429: the wrong "password" given with Basic counts against ada's login throttle.
                                #expect([.unauthorized, .notFound, .methodNotAllowed, .tooManyRequests].contains(response.status)
                                        || !Self.needsIdentity(route.path), "\(route.method) \(route.path) with a share token: \(response.status)")
                            }
                        }
                        checked += 1
                    }
                }
            }
            #expect(checked > 100)
            // Nothing was written with it.
            #expect(try await fixture.storedCount(fixture.ada) == 5)
            #expect(try await fixture.app.store.shares(userID: fixture.ada.id).count == 3)
            // The share routes take no write: only the unlock POST, which this link (no password) refuses.
            try await client.execute(uri: "/api/v1/s/\(token)/unlock", method: .post, headers: Self.json([:]),
                                     body: ByteBuffer(#"{"password":"x"}"#)) { #expect($0.status == .badRequest) }
            for method in [HTTPRequest.Method.post, .put, .delete] {
                try await client.execute(uri: "/api/v1/s/\(token)/path", method: method) { #expect($0.status == .methodNotAllowed) }
            }
        }
    }

    /// Routes that answer without an account (the first run's setup, the OpenAPI document, geocoding's public parts…):
    /// a share token there is just ignored.
    static func needsIdentity(_ path: String) -> Bool {
        !["/api/v1/setup", "/api/v1/session", "/api/v1/basemap", "/api/v1/oidc", "/api/v1/login", "/api/v1/health"]
            .contains { path.hasPrefix($0) }
    }

    @Test("a password link asks for its password first (throttled), then reads with the key; views count once unlocked")
    func passwordLink() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await Self.upload(client, Self.twoDays)
            let made = try await Self.create(client, #"{"kind":"day","day":"2024-05-02","password":"open sesame","title":"Secret"}"#)
            let token = try #require(made["token"] as? String)
            #expect(made["hasPassword"] as? Bool == true)
            try await client.execute(uri: "/api/v1/s/\(token)", method: .get) { response in
                let view = try #require(response.body.json as? [String: Any])
                #expect(view["locked"] as? Bool == true && view["title"] == nil && view["from"] == nil)
            }
            try await client.execute(uri: "/api/v1/s/\(token)/path", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/v1/s/\(token)/path", method: .get, headers: HTTPFields().adding("X-Share-Key", "guess")) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/s/\(token)/unlock", method: .post, headers: Self.json([:]),
                                     body: ByteBuffer(#"{"password":"wrong one"}"#)) { #expect($0.status == .unauthorized) }
            let key = try await client.execute(uri: "/api/v1/s/\(token)/unlock", method: .post, headers: Self.json([:]),
                                               body: ByteBuffer(#"{"password":"open sesame"}"#)) { response in
                #expect(response.status == .ok)
                return try #require((response.body.json as? [String: String])?["key"])
            }
            let unlocked = HTTPFields().adding("X-Share-Key", key)
            try await client.execute(uri: "/api/v1/s/\(token)", method: .get, headers: unlocked) {
                #expect(($0.body.json as? [String: Any])?["title"] as? String == "Secret")
            }
            try await client.execute(uri: "/api/v1/s/\(token)/path", method: .get, headers: unlocked) { #expect($0.status == .ok) }
            #expect(try await fixture.app.store.shares(userID: fixture.ada.id).first?.views == 1)
            // Wrong passwords in a row: the link's throttle refuses before checking.
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<8 {
                try await client.execute(uri: "/api/v1/s/\(token)/unlock", method: .post, headers: Self.json([:]),
                                         body: ByteBuffer(#"{"password":"wrong again"}"#)) { statuses.append($0.status) }
            }
            #expect(statuses.contains(.tooManyRequests), "\(statuses)")
        }
    }

    @Test("a live link shows the latest position from its making on, not before, and ends on time")
    func liveLink() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let made = try await Self.create(client, #"{"kind":"live","forSeconds":3600,"expiresInSeconds":999999}"#)
            let token = try #require(made["token"] as? String)
            #expect(made["kind"] as? String == "live")
            let fromText = try #require(made["from"] as? String), expiresText = try #require(made["expiresAt"] as? String)
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let created = try #require(fractional.date(from: fromText))
            let expires = try #require(fractional.date(from: expiresText))
            #expect(abs(expires.timeIntervalSince(created) - 3600) < 2, "a live link ends with its range")
            try await client.execute(uri: "/api/v1/s/\(token)/latest", method: .get) {
                #expect(($0.body.json as? [String: Any])?["features"] as? [Any] != nil)
                #expect((($0.body.json as? [String: Any])?["features"] as? [Any])?.isEmpty == true)
            }
            let before = fractional.string(from: Date(timeIntervalSinceNow: -600)), now = fractional.string(from: Date())
            try await Self.upload(client, "time,latitude,longitude\n\(before),10.5,20.5\n\(now),11.25,21.75\n")
            try await client.execute(uri: "/api/v1/s/\(token)/latest", method: .get) { response in
                #expect(response.status == .ok)
                let features = try #require((response.body.json as? [String: Any])?["features"] as? [[String: Any]])
                let coordinates = (features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double]
                #expect(coordinates?.prefix(2) == [21.75, 11.25])
                #expect(!response.body.text.contains("imports"), "no device name")
            }
        }
    }

    @Test("visitors are rate limited per address (over a socket: the client's address is known)")
    func rateLimited() async throws {
        let made = try await ServerFixture.make()
        // A burst of 20 and a refill of one request in 1,000 s: the count below does not depend on
        // how fast a loaded machine sends (the default's 2 a second refilled 140 slow requests).
        var app = made.app
        app.shareVisitorLimit = (burst: 20, perSecond: 0.001)
        let fixture = ServerFixture(app: app, ada: made.ada, bob: made.bob, adaPhone: made.adaPhone, bobPixel: made.bobPixel,
                                    adaToken: made.adaToken, bobToken: made.bobToken)
        try await fixture.test(.live) { client in
            var limited = 0
            for _ in 0..<40 {
                try await client.execute(uri: "/api/v1/s/\(ShareLinks.newToken())", method: .get) { response in
                    if response.status == .tooManyRequests {
                        limited += 1
                        #expect(response.headers[.retryAfter] != nil)
                    }
                }
            }
            #expect(limited == 20, "the 21st request on is refused")
        }
    }
}
