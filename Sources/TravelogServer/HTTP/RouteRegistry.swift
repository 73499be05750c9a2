import HTTPTypes
import Hummingbird

/// Adds routes to the router and remembers them, so a test can hold the OpenAPI document and the
/// routes the server really has side by side.
final class RouteRegistry {
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
