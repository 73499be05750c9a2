import Foundation
import HTTPTypes
import Hummingbird
import TravelogAccounts
import TravelogFormats
import TravelogStore

/// Reads the caller's credentials, in this order: `Authorization: Bearer <device token>`,
/// `Authorization: Basic` (user name with the user's password, or with one of the user's device
/// tokens: OwnTracks sends the token as its password), a `token` query parameter (Overland and
/// GPSLogger URLs), the page's session cookie. Credentials that are present but wrong are a 401 at
/// once; no credentials leave the identity empty for the route to decide.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = TravelogRequestContext
    static let sessionCookie = "travelog_session"
    /// Routes (patterns) for phone apps, which authenticate with a device token or a password, never the cookie.
    static let deviceOnlyRoutes: Set<String> = ["/api/v1/owntracks", "/api/v1/overland", "/api/v1/osmand", "/api/v1/gpslogger"]

    let accounts: AccountService

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        do {
            context.identity = try await identify(request, context: &context)
        } catch let error as AccountError {
            throw error.apiError
        } catch let error as StoreError {
            throw APIError.storeFailed(error)
        }
        return try await next(request, context)
    }

    func identify(_ request: Request, context: inout Context) async throws -> Identity? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { throw APIError.unauthorized("malformed Authorization header") }
            switch parts[0].lowercased() {
            case "bearer":
                return try await deviceIdentity(token: String(parts[1].trimmingWhitespace()))
            case "basic":
                return try await basicIdentity(String(parts[1].trimmingWhitespace()), from: context.clientAddress)
            default:
                throw APIError.unauthorized("unsupported Authorization scheme '\(parts[0])': use Basic or Bearer")
            }
        }
        if let token = request.uri.queryParameters["token"] {
            return try await deviceIdentity(token: String(token))
        }
        // The phone apps' routes take no cookie: an `<img src=…/api/v1/gpslogger?…>` on another page
        // would otherwise store a location with the visitor's login.
        // The route is the pattern `CanonicalPathMiddleware` found, so `//api/v1/gpslogger/` is one too.
        if let secret = request.cookies[Self.sessionCookie]?.value, !secret.isEmpty,
           !(context.route.map(Self.deviceOnlyRoutes.contains) ?? false) {
            context.sessionSecret = secret
            // An expired or unknown cookie is no identity (the page shows its login form).
            guard let user = try await accounts.user(session: secret) else { return nil }
            return Identity(user: user, device: nil, method: .session)
        }
        return nil
    }

    func deviceIdentity(token: String) async throws -> Identity {
        guard let (device, user) = try await accounts.tokenHolder(token: token) else {
            throw APIError.unauthorized("unknown device token")
        }
        return Identity(user: user, device: device, method: .deviceToken)
    }

    func basicIdentity(_ encoded: String, from address: String?) async throws -> Identity {
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else {
            throw APIError.unauthorized("malformed Basic credentials")
        }
        let name = String(text[..<colon]), secret = String(text[text.index(after: colon)...])
        // A device token first: a digest lookup, far cheaper than bcrypt.
        if let (device, user) = try await accounts.tokenHolder(token: secret), user.name == name {
            return Identity(user: user, device: device, method: .deviceToken)
        }
        guard let user = try await accounts.user(named: name, password: secret, from: address) else {
            throw APIError.unauthorized("wrong user name or password")
        }
        // A password alone is not enough for a user with two-factor login: a script uses a token.
        if try await accounts.isTwoFactorEnabled(userID: user.id) {
            throw APIError.unauthorized("\(name) has two-factor login on: HTTP Basic with the password is refused; "
                + "use a device token (travelog device add NAME --scope read, or Settings → Devices)")
        }
        return Identity(user: user, device: nil, method: .password)
    }
}
