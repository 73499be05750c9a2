import HTTPTypes
import Hummingbird
import Synchronization

/// Adds routes to the router and remembers them, so a test can hold the OpenAPI document and the
/// routes the server really has side by side, and a wrong method on a known path is a 405.
///
/// Routes are added while the router is built, before it serves; afterwards the list is only read.
final class RouteRegistry: @unchecked Sendable {
    let router: Router<TravelogRequestContext>
    /// Every route added, as (method, path pattern).
    private(set) var routes: [(method: String, path: String)] = []
    /// The routes' patterns split once, for matching a request without splitting every pattern
    /// again (that was 14 % of a small request's CPU).
    private var compiled: [CompiledPattern] = []

    /// A pattern's segments and, per segment, whether it is literal.
    private struct CompiledPattern {
        let index: Int
        let parts: [Substring]
        let literal: [Int]
        let wildcardTail: Bool
    }

    init(router: Router<TravelogRequestContext>) {
        self.router = router
    }


    func on<Output: ResponseGenerator>(_ path: String, method: HTTPRequest.Method,
                                       use handler: @Sendable @escaping (Request, TravelogRequestContext) async throws -> Output) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        compiled.append(CompiledPattern(index: routes.count, parts: parts, literal: Self.literalSegments(of: path),
                                        wildcardTail: parts.contains("**")))
        routes.append((method.rawValue, path))
        answered.withLock { $0.removeAll() }
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

    /// The answers of ``mostSpecific(matching:)`` for paths asked before: every request asks, and
    /// matching all the patterns was 6 % of a directions request's CPU. Paths up to 256 bytes, and
    /// at most 4,096 of them (then forgotten at once), so paths made up to fill it cost nothing lasting.
    private let answered = Mutex<[String: [(method: String, path: String)]]>([:])
    private static let answeredLimit = 4_096, answeredPathBytes = 256

    /// The routes whose pattern matches `path` with the most literal segments, in the order added.
    private func mostSpecific(matching path: String) -> [(method: String, path: String)] {
        guard path.utf8.count <= Self.answeredPathBytes else { return match(path) }
        if let known = answered.withLock({ $0[path] }) { return known }
        let found = match(path)
        answered.withLock { answers in
            if answers.count >= Self.answeredLimit { answers.removeAll(keepingCapacity: true) }
            answers[path] = found
        }
        return found
    }

    private func match(_ path: String) -> [(method: String, path: String)] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: [Int]?
        var found: [Int] = []
        for pattern in compiled where (pattern.wildcardTail || pattern.parts.count == segments.count) && Self.matches(parts: pattern.parts, segments) {
            if let current = best {
                if pattern.literal == current { found.append(pattern.index); continue }
                if current.lexicographicallyPrecedes(pattern.literal) { best = pattern.literal; found = [pattern.index] }
            } else {
                best = pattern.literal
                found = [pattern.index]
            }
        }
        return found.map { routes[$0] }
    }

    /// For each segment of a pattern, whether it is literal (1) or a parameter or wildcard (0).
    static func literalSegments(of pattern: String) -> [Int] {
        pattern.split(separator: "/", omittingEmptySubsequences: true).map { $0.hasPrefix("{") || $0.hasPrefix("*") ? 0 : 1 }
    }

    private static func matches(parts: [Substring], _ segments: [Substring]) -> Bool {
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
