import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogSQLite
import TravelogServer
import TravelogStore

@Suite("The OpenAPI document")
struct OpenAPIDocumentTests {
    /// (method, path) pairs of the document's `paths`, read from its two levels of indentation.
    static func documented() -> Set<String> {
        let text = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        var pairs = Set<String>(), path: String?, inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.hasPrefix(" "), !line.isEmpty { break }
            if line.hasPrefix("  /"), !line.hasPrefix("   ") { path = String(line.dropFirst(2).dropLast()) }
            for method in ["get", "post", "put", "delete", "patch"] where line == "    \(method):" {
                if let path { pairs.insert("\(method.uppercased()) \(path)") }
            }
        }
        return pairs
    }

    @Test("is OpenAPI 3.1 and describes exactly the routes the server has")
    func inStepWithRoutes() async throws {
        let text = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        #expect(text.hasPrefix("openapi: 3.1.0"))
        let app = TravelogServerApp(store: InMemoryLocationStore())
        let routes = Set(app.routeList.map { route in
            "\(route.method) \(route.path.replacingOccurrences(of: "**", with: "{file}"))"
        })
        #expect(routes.count == app.routeList.count)
        let documented = Self.documented()
        #expect(documented.count > 20)
        #expect(routes.subtracting(documented).sorted() == [], "routes missing from the document")
        #expect(documented.subtracting(routes).sorted() == [], "documented paths the server does not have")
    }
}
