import HTTPTypes
import Hummingbird

/// Adds routes to the router and remembers them, so a test can hold the OpenAPI document and the
/// routes the server really has side by side, and a wrong method on a known path is a 405.
///
/// Routes are added while the router is built, before it serves; afterwards the list is only read.
final class RouteRegistry: @unchecked Sendable {
    let router: Router<TravelogRequestContext>
    /// Every route added, as (method, path pattern).
    private(set) var routes: [(method: String, path: String)] = []

    init(router: Router<TravelogRequestContext>) {
        self.router = router
    }


    func on<Output: ResponseGenerator>(_ path: String, method: HTTPRequest.Method,
                                       use handler: @Sendable @escaping (Request, TravelogRequestContext) async throws -> Output) {
        routes.append((method.rawValue, path))
        router.on(RouterPath(path), method: method, use: handler)
    }

    /// The methods of the routes whose pattern matches `path` (`{name}` is one segment, `**` the
    /// rest), in the order added. As in the router, a literal segment beats a parameter: only the
    /// most specific patterns count (`/visits/merge` answers for itself, not for `/visits/{id}`).
    func methods(matching path: String) -> [String] {
        var found: [String] = []
        for route in mostSpecific(matching: path) where !found.contains(route.method) {
            found.append(route.method)
        }
        return found
    }

    /// The pattern of the route the router answers `method` on `path` (a canonical path) with.
    /// `HEAD` is answered as `GET`. Nil when no route takes that method there (a 404 or a 405).
    func route(method: HTTPRequest.Method, path: String) -> String? {
        let name = method == .head ? HTTPRequest.Method.get.rawValue : method.rawValue
        return mostSpecific(matching: path).first { $0.method == name }?.path
    }

    /// The routes whose pattern matches `path` with the most literal segments, in the order added.
    private func mostSpecific(matching path: String) -> [(method: String, path: String)] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let matching = routes.filter { Self.matches(pattern: $0.path, segments) }
        guard let best = matching.map({ Self.literalSegments(of: $0.path) }).max(by: { $0.lexicographicallyPrecedes($1) })
        else { return [] }
        return matching.filter { Self.literalSegments(of: $0.path) == best }
    }

    /// For each segment of a pattern, whether it is literal (1) or a parameter or wildcard (0).
    static func literalSegments(of pattern: String) -> [Int] {
        pattern.split(separator: "/", omittingEmptySubsequences: true).map { $0.hasPrefix("{") || $0.hasPrefix("*") ? 0 : 1 }
    }

    static func matches(pattern: String, _ segments: [Substring]) -> Bool {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true)
        for (index, part) in parts.enumerated() {
            if part == "**" { return segments.count > index }
            guard index < segments.count else { return false }
            if part.hasPrefix("{") || part == "*" { continue }
            if part != segments[index] { return false }
        }
        return parts.count == segments.count
    }

    func get<Output: ResponseGenerator>(_ path: String,
                                        use handler: @Sendable @escaping (Request, TravelogRequestContext) async throws -> Output) {
        on(path, method: .get, use: handler)
    }

    func post<Output: ResponseGenerator>(_ path: String,
                                         use handler: @Sendable @escaping (Request, TravelogRequestContext) async throws -> Output) {
        on(path, method: .post, use: handler)
    }

    func delete<Output: ResponseGenerator>(_ path: String,
                                           use handler: @Sendable @escaping (Request, TravelogRequestContext) async throws -> Output) {
        on(path, method: .delete, use: handler)
    }
}
