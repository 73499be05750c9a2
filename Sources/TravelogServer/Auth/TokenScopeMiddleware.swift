import HTTPTypes
import Hummingbird
import TravelogStore

/// Keeps a device token to what its scope allows. A `write` token (every phone app's, and every
/// token made before scopes) reaches only the ingest routes: it stores its device's locations and,
/// for OwnTracks, gets the friends' latest positions in the answer. Reading the history, the
/// journal, statistics or the live stream takes the password, the page's session or a `read`
/// token (`travelog device add --scope read`): a token pasted into an app, often inside a URL,
/// then cannot export anyone's history. A `write` token also reads the friends' latest positions
/// (what the OwnTracks answer carries); a `read` token reaches no friends' route at all.
struct TokenScopeMiddleware: RouterMiddleware {
    typealias Context = TravelogRequestContext

    /// What a `write` token may reach: (method, route pattern).
    static let ingestRoutes: Set<String> = [
        "POST /api/v1/owntracks", "POST /api/v1/overland", "POST /api/v1/locations", "POST /api/v1/imports",
        "GET /api/v1/osmand", "POST /api/v1/osmand", "GET /api/v1/gpslogger", "POST /api/v1/gpslogger",
        // The friends' latest positions, as the OwnTracks answer lists them.
        "GET /api/v1/friends/positions",
    ]

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if let identity = context.identity, identity.method == .deviceToken, identity.device?.tokenScope != .read,
           let route = context.route, !Self.writeTokenMayReach(method: request.method, route: route) {
            throw APIError.forbidden("this device token may only send locations; reading takes the password, the page, "
                                     + "or a token made with `travelog device add --scope read`")
        }
        // A read token reads its user's own history, never what friends let that user see.
        if let identity = context.identity, identity.method == .deviceToken, identity.device?.tokenScope == .read,
           let route = context.route, route.hasPrefix("/api/v1/friends") {
            throw APIError.forbidden("a read token does not reach friends: use the password or the page")
        }
        return try await next(request, context)
    }

    /// Whether a `write` token may reach the route with this pattern (as `CanonicalPathMiddleware`
    /// found it, never the path's text): an ingest route, or one outside the API that answers
    /// everyone alike (the page's files, `/healthz`, the OpenAPI document).
    static func writeTokenMayReach(method: HTTPRequest.Method, route: String) -> Bool {
        let name = method == .head ? HTTPRequest.Method.get.rawValue : method.rawValue
        return ingestRoutes.contains("\(name) \(route)") || !route.hasPrefix("/api/v1/")
    }
}
