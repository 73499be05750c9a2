import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import TravelogServer

@Suite("The API answers as its document says")
struct APIContractTests {
    @Test("parameters outside their documented range or enum are a 400 with a JSON error",
          arguments: ["/api/v1/notifications/log?limit=1001", "/api/v1/notifications/log?limit=0", "/api/v1/notifications/log?limit=ten",
                      "/api/v1/geocode/forward?q=Berlin&limit=332", "/api/v1/geocode/forward?q=Berlin&limit=0",
                      "/api/v1/locations?order=bogus", "/api/v1/visits?hidden=bogus"])
    func outOfRange(uri: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: uri, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .badRequest, "\(uri)")
                #expect((response.body.json as? [String: String])?["error"] != nil, "\(uri)")
            }
        }
    }

    @Test("the documented bounds themselves are accepted",
          arguments: ["/api/v1/notifications/log?limit=1000", "/api/v1/geocode/forward?q=Berlin&limit=50",
                      "/api/v1/locations?order=newest", "/api/v1/visits?hidden=true"])
    func bounds(uri: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: uri, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .ok, "\(uri)")
            }
        }
    }

    @Test("a method a known path does not take is a 405 with Allow and a JSON error; an unknown path a JSON 404")
    func methodNotAllowed() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for (method, uri) in [(HTTPRequest.Method.put, "/api/v1/locations"), (.delete, "/api/v1/latest"), (.post, "/api/v1/visits/7")] {
                try await client.execute(uri: uri, method: method, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow]?.isEmpty == false, "\(method) \(uri)")
                    #expect((response.body.json as? [String: String])?["error"] != nil)
                }
            }
            try await client.execute(uri: "/api/v1/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect((response.body.json as? [String: String])?["error"] != nil)
            }
        }
    }

    @Test("/metrics is off, loopback-only or behind a bearer token, as configured")
    func metricsAccess() async throws {
        #expect(!MetricsAccess.off.permits(address: "127.0.0.1", forwarded: false, authorization: nil))
        #expect(MetricsAccess.loopback.permits(address: "127.0.0.1", forwarded: false, authorization: nil))
        #expect(MetricsAccess.loopback.permits(address: "::1", forwarded: false, authorization: nil))
        #expect(!MetricsAccess.loopback.permits(address: "127.0.0.1", forwarded: true, authorization: nil))
        #expect(!MetricsAccess.loopback.permits(address: "203.0.113.5", forwarded: false, authorization: nil))
        #expect(!MetricsAccess.loopback.permits(address: nil, forwarded: false, authorization: nil))
        let bearer = MetricsAccess.bearer(token: "scrape-token-123")
        #expect(bearer.permits(address: "203.0.113.5", forwarded: true, authorization: "Bearer scrape-token-123"))
        #expect(!bearer.permits(address: "127.0.0.1", forwarded: false, authorization: "Bearer scrape-token-12"))
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            // The router test has no socket, hence no client address: not loopback.
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .notFound) }
        }
    }
}
