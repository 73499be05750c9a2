import Foundation
import TravelogFormats
import Hummingbird
import TravelogAccounts
import TravelogStore

/// Logging in and out with the page's cookie, and the person's list of sessions.
struct SessionRoutes {
    let accounts: AccountService
    let configuration: ServerConfiguration
    /// Told of each login, so the person's tile index is built while the page loads.
    let tiles: HistoryTiles

    /// A cookie the page can read (not HttpOnly, and holding no secret) that says a login was made
    /// in this browser: the page asks `GET /api/v1/session` only when it is there, so a visitor who
    /// is not logged in causes no 401 in the browser's console. It lives as long as the session.
    static let signedInCookie = "travelog_signed_in"

    struct LoginForm: Decodable {
        var user: String
        var password: String
        /// The second factor, for a user with two-factor login on: a TOTP code or a recovery code.
        var code: String?
    }

    struct SessionInfo: Encodable {
        var user: String
        /// Whether the page shows the administrator's settings.
        var administrator: Bool
        var tileURLTemplate: String
        var tileAttribution: String
        /// When this session signed in (GET, with a session started since Travelog keeps it).
        var signedInAt: String?
        /// Until when that sign-in confirms an account's deletion without a password; absent after.
        var signInConfirmsUntil: String?
    }

    /// `POST /api/v1/session` logs in (JSON or form `user`, `password`) and sets the page's cookie;
    /// `GET` says who is logged in; `DELETE` logs out.
    func add(to router: RouteRegistry) {
        addLoginRoutes(to: router)
        addSessionListRoutes(to: router)
    }

    func addLoginRoutes(to router: RouteRegistry) {
        router.post("/api/v1/session") { request, context in
            var request = request
            let bytes = try await request.collectBytes(context: context)
            let form = try Self.loginForm(bytes, contentType: request.headers[.contentType])
            let outcome = try await account { () throws(AccountError) in
                try await accounts.logIn(named: form.user, password: form.password, code: form.code, from: context.clientAddress)
            }
            return try await loginAnswer(outcome)
        }
        router.get("/api/v1/session") { _, context in
            var info = sessionInfo(try context.requireIdentity().user)
            if let secret = context.sessionSecret {
                let (started, confirms) = try await account { () throws(AccountError) in
                    (try await accounts.signInTime(session: secret), try await accounts.signInConfirms(session: secret))
                }
                info.signedInAt = started.map(ISO8601TimeFormatter.string)
                info.signInConfirmsUntil = confirms.map(ISO8601TimeFormatter.string)
            }
            return try Response.json(info)
        }
        router.delete("/api/v1/session") { _, context in
            if let secret = context.sessionSecret {
                try await account { () throws(AccountError) in try await accounts.endSession(secret) }
            }
            return signedOut()
        }
    }

    /// A 204 that clears the session's cookies (a logout, a deleted account).
    func signedOut() -> Response {
        var response = Response(status: .noContent)
        response.setCookie(Cookie(name: AuthenticationMiddleware.sessionCookie, value: "", maxAge: 0, path: "/",
                                  secure: configuration.secureCookies, httpOnly: true, sameSite: .strict))
        response.setCookie(Cookie(name: Self.signedInCookie, value: "", maxAge: 0, path: "/",
                                  secure: configuration.secureCookies, httpOnly: false, sameSite: .strict))
        return response
    }

    /// `GET /api/v1/sessions` lists the person's logins; `DELETE /api/v1/sessions/{id}` ends one
    /// (`current` marks the caller's own). Not with a device token.
    func addSessionListRoutes(to router: RouteRegistry) {
        struct SessionJSON: Encodable {
            var id: String
            var expiresAt: String
            var current: Bool
        }
        router.get("/api/v1/sessions") { _, context in
            let identity = try context.requirePerson()
            let sessions = try await account { () throws(AccountError) in
                try await accounts.sessions(userID: identity.user.id, current: context.sessionSecret)
            }
            return try Response.json(sessions.map { SessionJSON(id: $0.id, expiresAt: ISO8601TimeFormatter.string($0.expiresAt), current: $0.current) })
        }
        router.delete("/api/v1/sessions/{id}") { _, context in
            let identity = try context.requirePerson()
            let id = context.parameters.get("id") ?? ""
            guard try await account({ () throws(AccountError) in try await accounts.endSession(id: id, userID: identity.user.id) }) else {
                throw APIError.notFound("no session \(id)")
            }
            return Response(status: .noContent)
        }
    }

    /// Starts a session for `user` and answers as a login does: who is logged in, and the page's
    /// two cookies (the session's, HttpOnly, and the readable mark that a login was made).
    func loggedIn(_ user: User, status: HTTPResponse.Status = .ok) async throws -> Response {
        let secret = try await account { () throws(AccountError) in try await accounts.startSession(userID: user.id) }
        tiles.warm(userID: user.id)
        var response = try Response.json(sessionInfo(user), status: status)
        Self.setLoginCookies(on: &response, session: secret, configuration: configuration)
        return response
    }

    /// The page's two cookies of a login (also set by single sign-on's callback).
    static func setLoginCookies(on response: inout Response, session secret: String, configuration: ServerConfiguration) {
        let lifetime = Int(configuration.sessionLifetimeSeconds)
        response.setCookie(Cookie(name: AuthenticationMiddleware.sessionCookie, value: secret, maxAge: lifetime, path: "/",
                                  secure: configuration.secureCookies, httpOnly: true, sameSite: .strict))
        response.setCookie(Cookie(name: signedInCookie, value: "1", maxAge: lifetime, path: "/",
                                  secure: configuration.secureCookies, httpOnly: false, sameSite: .strict))
    }

    func sessionInfo(_ user: User) -> SessionInfo {
        SessionInfo(user: user.name, administrator: user.isAdministrator, tileURLTemplate: configuration.tileURLTemplate,
                    tileAttribution: configuration.tileAttribution)
    }

    static func loginForm(_ bytes: [UInt8], contentType: String?) throws(APIError) -> LoginForm {
        if contentType?.hasPrefix("application/x-www-form-urlencoded") == true {
            var fields: [String: String] = [:]
            for pair in String(decoding: bytes, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard let user = fields["user"], let password = fields["password"] else {
                throw .badRequest("expected the form fields 'user' and 'password'")
            }
            return LoginForm(user: user, password: password, code: fields["code"])
        }
        do {
            return try JSONDecoder().decode(LoginForm.self, from: Data(bytes))
        } catch {
            throw .badRequest("expected a JSON object {\"user\": …, \"password\": …}")
        }
    }

    /// Runs an account operation, answering its failure as the API does.
    func account<T>(_ body: () async throws(AccountError) -> T) async throws(APIError) -> T {
        do { return try await body() } catch { throw error.apiError }
    }
}
