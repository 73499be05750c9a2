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

    /// The lines of one operation of the document (`method` lower case), from its `    get:` line to
    /// the next operation or path.
    static func operation(_ method: String, _ path: String) -> [Substring] {
        let text = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let pathLine = lines.firstIndex(of: "  \(path):"),
              let start = lines[pathLine...].firstIndex(of: "    \(method):") else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { line in
            !line.hasPrefix("     ") && (line.hasPrefix("    ") || line.hasPrefix("  /") || !line.hasPrefix(" "))
        } ?? lines.endIndex
        return Array(lines[start..<end])
    }

    /// The status codes the document lists for an operation.
    static func statuses(_ method: String, _ path: String) -> Set<String> {
        Set(operation(method, path).compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("        \""), trimmed.count > 5, trimmed.dropFirst(4).hasPrefix("\":") else { return nil }
            return String(trimmed.dropFirst().prefix(3))
        })
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

    /// The server refuses a fix dated more than a day after its clock, a bound that moves: a fixed
    /// one in the document expired (the end of 2026 was valid until a day before it, and schemathesis
    /// then sent a schema-valid time the server rightly refused). Only bounds that never move are stated.
    @Test("stored times are bounded below only, by 1990, and the string form takes any later year")
    func storedTimeBounds() throws {
        let text = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "    StoredTime:"))
        let section = lines[(start + 1)...].prefix { $0.hasPrefix("      ") }
        let maxima: [String] = section.compactMap { line in
            guard let bound = line.range(of: "maximum: ") else { return nil }
            return String(line[bound.upperBound...].prefix { $0.isNumber })
        }
        let forms: [String] = section.filter { $0.hasPrefix("        - {") }.map(String.init)
        #expect(forms.count == 3)
        // Epoch seconds end where milliseconds begin (2^31 − 1): a split by magnitude, not by date.
        #expect(maxima == ["2147483646"], "\(maxima)")
        let pattern = try #require(forms.first?.split(separator: "\"").dropFirst().first.map(String.init))
        let regex = try NSRegularExpression(pattern: pattern)
        for year in ["1990", "2026", "2027", "2150"] {
            #expect(regex.firstMatch(in: "\(year)-01-01T00:00:00Z", range: NSRange(location: 0, length: 20)) != nil, "\(year)")
        }
        #expect(regex.firstMatch(in: "1989-12-31T00:00:00Z", range: NSRange(location: 0, length: 20)) == nil)
    }

    /// `ReadParameters` answers a device name the user has no device of with 404: every operation
    /// taking the shared `device` parameter must say so (schemathesis found two that did not).
    @Test("every operation with the device parameter documents its 404")
    func deviceParameterNotFound() {
        var checked = 0
        for pair in Self.documented().sorted() {
            let parts = pair.split(separator: " ", maxSplits: 1)
            let method = parts[0].lowercased(), path = String(parts[1])
            guard Self.operation(method, path).contains(where: { $0.contains("#/components/parameters/device\"") }) else { continue }
            checked += 1
            #expect(Self.statuses(method, path).contains("404"), "\(pair) takes `device` but documents no 404")
        }
        #expect(checked >= 9)
    }
}
