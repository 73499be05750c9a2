import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import TravelogAccounts
import TravelogStore

/// Single sign-on with an OpenID Connect provider: the authorization code flow with PKCE (S256),
/// `state` and `nonce` (OpenID Connect Core 1.0 §3.1, RFC 7636).
///
/// `GET /api/v1/oidc` tells the page whether single sign-on is offered and by whom.
/// `GET /api/v1/oidc/login` remembers a new login (state → nonce, PKCE verifier, callback), puts
/// its state in a cookie of this browser, and sends the browser to the provider.
/// `GET /api/v1/oidc/callback` takes the login back once (the state must be the cookie's: a
/// callback link from someone else's login is refused), trades the code for the ID token, checks
/// it, finds (or makes, with `--oidc-create-users`) the user, and sets the page's session cookie
/// as a password login does. Failures answer a short page that says why.
struct OIDCRoutes {
    let provider: OIDCProvider?
    let accounts: AccountService
    let configuration: ServerConfiguration
    let tiles: HistoryTiles

    static let stateCookie = "travelog_oidc_state"
    static let callbackPath = "/api/v1/oidc/callback"

    struct Offer: Encodable {
        var enabled: Bool
        var providerName: String?
        var loginURL: String?
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/oidc") { _, _ in
            try Response.json(Offer(enabled: provider != nil, providerName: provider?.settings.providerName,
                                    loginURL: provider == nil ? nil : "/api/v1/oidc/login"))
        }
        router.get("/api/v1/oidc/login") { request, _ in
            let provider = try requireProvider()
            let redirectURI = try redirectURI(for: request, provider: provider)
            let returnTo = try Self.returnPath(request.uri.queryParameters["return"].map(String.init))
            let state = OIDCProvider.randomToken()
            let login = OIDCPendingLogins.Login(nonce: OIDCProvider.randomToken(), codeVerifier: OIDCProvider.randomToken(),
                                                redirectURI: redirectURI, startedAt: Date(), returnTo: returnTo)
            provider.pending.withLock { $0.start(state: state, login) }
            let query = [("response_type", "code"), ("client_id", provider.settings.clientID), ("redirect_uri", redirectURI),
                         ("scope", "openid profile email"), ("state", state), ("nonce", login.nonce),
                         ("code_challenge", OIDCProvider.codeChallenge(login.codeVerifier)), ("code_challenge_method", "S256")]
                .map { "\($0.0)=\(OIDCProvider.formEncode($0.1))" }.joined(separator: "&")
            let endpoint = provider.metadata.authorization_endpoint
            var response = Response(status: .found)
            response.headers[.location] = endpoint + (endpoint.contains("?") ? "&" : "?") + query
            response.headers[.cacheControl] = "no-store"
            // Lax, not Strict: the provider's redirect back is a navigation from another site.
            response.setCookie(Cookie(name: Self.stateCookie, value: state, maxAge: Int(OIDCPendingLogins.lifetimeSeconds),
                                      path: Self.callbackPath, secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
            return response
        }
        router.get(Self.callbackPath) { request, context in
            do {
                return try await callback(request)
            } catch let error as AccountError {
                throw error.apiError
            } catch let error as StoreError {
                throw APIError.storeFailed(error)
            } catch let refusal as Refusal {
                context.logger.notice("single sign-on refused: \(refusal.message)")
                return refusal.page(configuration: configuration)
            }
        }
    }

    /// A login's `return`: a path of this server's page ("/", "/#settings/data"), never another site's
    /// address ("//host", "/\\host", "https://…") nor anything a header could not carry as it is.
    static func returnPath(_ wanted: String?) throws(APIError) -> String {
        guard let wanted, !wanted.isEmpty else { return "/" }
        let bytes = Array(wanted.utf8)
        guard bytes.count <= 200, bytes.first == UInt8(ascii: "/"), bytes.dropFirst().first != UInt8(ascii: "/"),
              bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else {
            throw .badRequest("'return' must be a path of this server starting with one '/' (at most 200 printable ASCII characters)")
        }
        return wanted
    }

    func requireProvider() throws(APIError) -> OIDCProvider {
        guard let provider else {
            throw APIError.notFound("single sign-on is not set up (travelog serve --oidc-issuer URL --oidc-client-id ID …)")
        }
        return provider
    }

    func redirectURI(for request: Request, provider: OIDCProvider) throws(APIError) -> String {
        if let configured = provider.settings.redirectURL { return configured }
        guard let host = request.head.authority ?? request.headers[CrossSiteRequestMiddleware.hostField], !host.isEmpty else {
            throw APIError.badRequest("the request names no Host: start --oidc-redirect-url")
        }
        return "\(configuration.secureCookies ? "https" : "http")://\(host)\(Self.callbackPath)"
    }

    func callback(_ request: Request) async throws -> Response {
        let provider = try requireProvider()
        let query = request.uri.queryParameters
        if let error = query["error"] {
            throw Refusal(.forbidden, "the provider refused the login: \(error)"
                          + (query["error_description"].map { " (\($0))" } ?? ""))
        }
        guard let code = query["code"], let state = query["state"] else {
            throw Refusal(.badRequest, "the provider's answer lacks the code or the state")
        }
        guard let cookie = request.cookies[Self.stateCookie]?.value,
              OIDCTokenVerifier.constantTimeEqual(cookie, String(state)) else {
            throw Refusal(.forbidden, "this login was not started in this browser (the state does not match): start again")
        }
        guard let login = provider.pending.withLock({ $0.take(state: String(state), now: Date()) }) else {
            throw Refusal(.forbidden, "this login is unknown, already used or expired: start again")
        }
        let claims: OIDCIDTokenClaims
        do throws(OIDCError) {
            let idToken = try await provider.exchange(code: String(code), codeVerifier: login.codeVerifier, redirectURI: login.redirectURI)
            claims = try await provider.verify(idToken: idToken, nonce: login.nonce)
        } catch {
            throw Refusal(error)
        }
        let user = try await travelogUser(for: claims, settings: provider.settings)
        let secret = try await accounts.startSession(userID: user.id)
        tiles.warm(userID: user.id)
        var response = Response(status: .found)
        response.headers[.location] = login.returnTo
        response.headers[.cacheControl] = "no-store"
        SessionRoutes.setLoginCookies(on: &response, session: secret, configuration: configuration)
        response.setCookie(Cookie(name: Self.stateCookie, value: "", maxAge: 0, path: Self.callbackPath,
                                  secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
        return response
    }

    /// The Travelog user the claims name (see `OIDCSettings.UserClaim`); made when allowed.
    func travelogUser(for claims: OIDCIDTokenClaims, settings: OIDCSettings) async throws -> User {
        let name: String? = switch settings.userClaim {
        case .preferredUsername: claims.preferredUsername
        // An address the provider did not verify could be anyone's.
        case .email: claims.emailVerified == false ? nil : claims.email
        case .sub: claims.subject
        }
        guard let name, !name.isEmpty else { throw Refusal(.forbidden, OIDCError.missingClaim(settings.userClaim.rawValue).description) }
        if let user = try await accounts.store.user(named: name) { return user }
        guard settings.createUsers else {
            throw Refusal(.forbidden, "\(settings.providerName) knows you as '\(name)', but this Travelog server has no such user: "
                          + "ask its administrator to add it (travelog user add NAME), or to allow new users (--oidc-create-users)")
        }
        do {
            // A password nobody knows: this user logs in through the provider (or gets one set later).
            return try await accounts.addUser(named: name, password: OIDCProvider.randomToken())
        } catch .store(.userExists) {
            if let user = try await accounts.store.user(named: name) { return user }
            throw Refusal(.forbidden, "the user '\(name)' could not be made")
        } catch {
            throw Refusal(.forbidden, "the user '\(name)' could not be made: \(error)")
        }
    }

    /// A refused single sign-on: a short page for the person in the browser, with the reason.
    struct Refusal: Error {
        var status: HTTPResponse.Status
        var message: String

        init(_ status: HTTPResponse.Status, _ message: String) {
            self.status = status
            self.message = message
        }

        /// The provider's failures are a bad gateway; a token that fails a check is refused.
        init(_ error: OIDCError) {
            switch error {
            case .providerUnreachable, .tokenExchangeFailed, .badDiscovery: self.init(.badGateway, error.description)
            default: self.init(.forbidden, error.description)
            }
        }

        func page(configuration: ServerConfiguration) -> Response {
            let escaped = message.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            let html = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Travelog: login refused</title></head>
                <body><h1>Login refused</h1><p id="reason">\(escaped)</p><p><a href="/">Back to Travelog</a></p></body></html>

                """
            var response = Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                    body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
            response.setCookie(Cookie(name: OIDCRoutes.stateCookie, value: "", maxAge: 0, path: OIDCRoutes.callbackPath,
                                      secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
            return response
        }
    }
}
