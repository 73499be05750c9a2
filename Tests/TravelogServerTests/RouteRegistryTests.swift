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
}
