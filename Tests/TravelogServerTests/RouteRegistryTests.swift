import Hummingbird
import Testing
@testable import TravelogServer

/// The methods a 405's `Allow` lists are those of the route the router would pick for the path.
@Suite("Route registry")
struct RouteRegistryTests {
    @Test("a literal segment beats a parameter: /visits/merge allows POST, not the PATCH and DELETE of /visits/{id} (schemathesis)")
    func literalBeatsParameter() {
        let registry = RouteRegistry(router: Router(context: TravelogRequestContext.self))
        registry.on("/api/v1/visits/{id}", method: .patch) { _, _ in "" }
        registry.delete("/api/v1/visits/{id}") { _, _ in "" }
        registry.post("/api/v1/visits/merge") { _, _ in "" }
        registry.get("/vendor/**") { _, _ in "" }
        #expect(registry.methods(matching: "/api/v1/visits/merge") == ["POST"])
        #expect(registry.methods(matching: "/api/v1/visits/7") == ["PATCH", "DELETE"])
        #expect(registry.methods(matching: "/vendor/leaflet/leaflet.js") == ["GET"])
        #expect(registry.methods(matching: "/api/v1/nothing").isEmpty)
    }

    @Test("answers remembered per path are the same when asked again, and a route added later is seen; 5,000 made-up paths leave the answers right")
    func answersRemembered() {
        let registry = RouteRegistry(router: Router(context: TravelogRequestContext.self))
        registry.get("/api/v1/visits/{id}") { _, _ in "" }
        #expect(registry.route(method: .get, path: "/api/v1/visits/merge") == "/api/v1/visits/{id}")
        #expect(registry.route(method: .get, path: "/api/v1/visits/merge") == "/api/v1/visits/{id}")
        registry.get("/api/v1/visits/merge") { _, _ in "" }
        #expect(registry.route(method: .get, path: "/api/v1/visits/merge") == "/api/v1/visits/merge")
        for index in 0..<5_000 { #expect(registry.route(method: .get, path: "/api/v1/visits/\(index)") == "/api/v1/visits/{id}") }
        #expect(registry.route(method: .head, path: "/api/v1/visits/7") == "/api/v1/visits/{id}")
        #expect(registry.route(method: .post, path: "/api/v1/visits/7") == nil)
        let long = "/api/v1/visits/" + String(repeating: "x", count: 300)
        #expect(registry.route(method: .get, path: long) == "/api/v1/visits/{id}")
        #expect(registry.route(method: .get, path: long + "/more") == nil)
    }
}
