import Foundation
import HTTPTypes
import Hummingbird

/// Refuses cross-site request forgery. A change made with the page's session cookie (any method
/// but GET, HEAD and OPTIONS) must show that it comes from the page's own origin: `Sec-Fetch-Site:
/// same-origin`, an `Origin` naming this server, or (from a browser that sends neither) the
/// `X-Requested-With` header the page's scripts send, which no other site can set without the
/// server's consent (CORS). Its body may not be one a plain HTML form or a `no-cors` fetch can
/// send (`text/plain`, `application/x-www-form-urlencoded`), except a login's, which acts with the
/// password it carries, not with the cookie. A login (`POST /api/v1/session`, or the first
/// account's creation, `POST /api/v1/setup`) that
/// a browser marks as coming from another site is refused too (login CSRF); one without any of the
/// headers (curl, a script) is not a browser's and goes through.
///
/// Device tokens are not sent by browsers on their own, so requests that use them are not
/// affected. HTTP Basic is, once the user typed the password into the browser's dialog: a change
/// with it that the browser marks as coming from another site is refused.
struct CrossSiteRequestMiddleware: RouterMiddleware {
    typealias Context = TravelogRequestContext

    /// Where a request says it comes from.
    enum Provenance: Equatable {
        case sameOrigin
        case otherOrigin
        /// None of the headers: not a browser, or a very old one.
        case unknown
    }

    /// The login's route pattern.
    static let loginRoute = "/api/v1/session"

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.safeMethods.contains(request.method) else { return try await next(request, context) }
        let byCookie = context.identity?.method == .session
        let isLogin = request.method == .post && (context.route == Self.loginRoute || context.route == SetupRoutes.route)
        if byCookie || isLogin {
            switch Self.provenance(of: request.headers, authority: request.head.authority) {
            case .sameOrigin: break
            case .otherOrigin:
                throw APIError.forbidden("a change with the page's login must come from the page itself (cross-site request refused)")
            case .unknown where byCookie:
                throw APIError.forbidden("a change with the page's login must come from the page (send X-Requested-With), "
                                         + "or use HTTP Basic or a token")
            case .unknown: break
            }
        }
        // A browser resends a Basic password it was once given in its dialog (a navigation gets
        // WWW-Authenticate), also with a form another site posts: what a browser marks as coming
        // from another site is refused with the password too. Apps and scripts send no such marks.
        if context.identity?.method == .password,
           Self.provenance(of: request.headers, authority: request.head.authority) == .otherOrigin {
            throw APIError.forbidden("a change with a password from another site is refused (cross-site request)")
        }
        // A login acts with the password it carries, not with the cookie: the page's login form may post it.
        if byCookie, !isLogin, let type = request.headers[.contentType].map(Self.mediaType), Self.formTypes.contains(type) {
            throw APIError.unsupportedMediaType("\(type): a change with the page's login takes JSON")
        }
        return try await next(request, context)
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]
    /// Bodies a form or a `no-cors` fetch from any site can send without asking.
    static let formTypes: Set<String> = ["text/plain", "application/x-www-form-urlencoded"]
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let origin = HTTPField.Name("Origin")!
    static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!
    static let hostField = HTTPField.Name("Host")!

    /// `text/plain; charset=utf-8` → `text/plain`.
    static func mediaType(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// - Parameter authority: the request's `Host`.
    static func provenance(of headers: HTTPFields, authority host: String?) -> Provenance {
        if let site = headers[secFetchSite] {
            return site.lowercased() == "same-origin" ? .sameOrigin : .otherOrigin
        }
        if let origin = headers[origin] {
            let hosts = [host, headers[hostField], headers[forwardedHost]].compactMap { $0 }.map { hostAuthority($0) }
            return hosts.contains(authority(ofOrigin: origin)) ? .sameOrigin : .otherOrigin
        }
        return headers[APIError.requestedWith] != nil ? .sameOrigin : .unknown
    }

    /// `https://example.org` → `example.org`; `http://h:8080` → `h:8080` (default ports dropped);
    /// `null` → `null`, which matches no host.
    static func authority(ofOrigin origin: String) -> String {
        let lowered = origin.lowercased()
        guard let range = lowered.range(of: "://") else { return lowered }
        let scheme = lowered[..<range.lowerBound]
        let rest = lowered[range.upperBound...]
        let host = String(rest.prefix { $0 != "/" })
        let defaultPort = scheme == "https" ? ":443" : ":80"
        return host.hasSuffix(defaultPort) ? String(host.dropLast(defaultPort.count)) : host
    }

    /// A `Host` value, default ports dropped.
    static func hostAuthority(_ host: String) -> String {
        let lowered = host.lowercased().trimmingCharacters(in: .whitespaces)
        for port in [":80", ":443"] where lowered.hasSuffix(port) { return String(lowered.dropLast(port.count)) }
        return lowered
    }
}
