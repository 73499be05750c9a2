import HTTPTypes
import Hummingbird

/// Gives every request one path before anything decides on it, and names the route it reaches.
///
/// Hummingbird's router reads `//api/v1/export`, `/api/v1/export/` and `/api//v1/export` as
/// `/api/v1/export`, while a check written against `request.uri.path` sees three other strings: a
/// phone's token once read the whole history that way. So the path is made canonical here, at the
/// edge (empty segments and a trailing slash dropped), and the request is rewritten to it; what
/// has no one meaning is refused: a 404 for a `.` or `..` segment, any percent-encoding, a
/// backslash or a control character (no route is spelled so), a 400 for a target that is not a
/// path. Then the route the router will pick is looked up in the registry and kept in
/// `context.route`, and the checks after this one (authentication, cross site, token scope) key on
/// that pattern, never on the path's text.
struct CanonicalPathMiddleware: RouterMiddleware {
    typealias Context = TravelogRequestContext

    let registry: RouteRegistry

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let target = request.head.path ?? ""
        let (rawPath, query) = Self.split(target: target)
        let path = try Self.canonical(path: rawPath)
        var request = request
        if path != rawPath {
            var head = request.head
            head.path = query.map { path + "?" + $0 } ?? path
            request = Request(head: head, body: request.body)
        }
        var context = context
        context.route = registry.route(method: request.method, path: path)
        return try await next(request, context)
    }

    /// A request target split at its first `?`.
    static func split(target: String) -> (path: String, query: String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }

    /// The canonical form of a request's path: `/` and the non-empty segments joined by `/`.
    /// - Throws: `APIError.notFound` for a path with no single meaning, `.badRequest` for no path.
    static func canonical(path: String) throws(APIError) -> String {
        guard path.hasPrefix("/") else {
            throw .badRequest("the request target must be a path starting with /")
        }
        // No route of this server is spelled so: a 404, which every route documents.
        if let refused = path.utf8.first(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F }) {
            let what = refused == UInt8(ascii: "%") ? "percent-encoding" : refused == UInt8(ascii: "\\") ? "a backslash" : "a control character"
            throw .notFound("no such path: a path of this server has no \(what)")
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            throw .notFound("no such path: a path of this server has no . or .. segments")
        }
        return "/" + segments.joined(separator: "/")
    }
}
