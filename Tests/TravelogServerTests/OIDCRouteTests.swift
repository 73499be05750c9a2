import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import TravelogServer

/// The single sign-on routes without a provider on the network: what the page is told, the
/// redirect to the provider, and the callbacks refused before any token exchange.
@Suite("OpenID Connect: routes")
struct OIDCRouteTests {
    static func provider() -> OIDCProvider {
        let settings = OIDCSettings(issuer: "https://id.example.test", clientID: "travelog", clientSecret: "s3cret",
                                    providerName: "Test")
        let metadata = OIDCProvider.Metadata(issuer: "https://id.example.test", authorization_endpoint: "https://id.example.test/auth?x=1",
                                             token_endpoint: "https://id.example.test/token", jwks_uri: "https://id.example.test/jwks",
                                             token_endpoint_auth_methods_supported: nil, code_challenge_methods_supported: ["S256"])
        return OIDCProvider(settings: settings, metadata: metadata, keys: OIDCJSONWebKeySet(keys: []))
    }

    @Test("without --oidc-issuer the page is told there is no single sign-on, and its routes are 404")
    func notConfigured() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/oidc", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""enabled":false"#))
            }
            for uri in ["/api/v1/oidc/login", "/api/v1/oidc/callback?code=a&state=b"] {
                try await client.execute(uri: uri, method: .get) { response in #expect(response.status == .notFound) }
            }
        }
    }

    @Test("the login redirects to the provider with the code flow, PKCE S256, state and nonce, and keeps the state in a Lax cookie")
    func loginRedirect() async throws {
        var app = try await ServerFixture.make().app
        app.oidc = Self.provider()
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/oidc", method: .get) { response in
                #expect(String(buffer: response.body).contains(#""providerName":"Test""#))
            }
            try await client.execute(uri: "/api/v1/oidc/login", method: .get) { response in
                #expect(response.status == .found)
                let location = try #require(response.headers[.location])
                #expect(location.hasPrefix("https://id.example.test/auth?x=1&response_type=code&client_id=travelog&"))
                // The request's authority (the test client names its own) and the callback's path.
                #expect(location.contains("redirect_uri=http%3A%2F%2Flocalhost%2Fapi%2Fv1%2Foidc%2Fcallback&"))
                #expect(location.contains("code_challenge_method=S256"))
                let query = Dictionary(uniqueKeysWithValues: location.split(separator: "?")[1].split(separator: "&").map {
                    let pair = $0.split(separator: "=", maxSplits: 1)
                    return (String(pair[0]), String(pair[1]))
                })
                #expect(query["code_challenge"]?.count == 43 && query["nonce"]?.count == 43)
                let state = try #require(query["state"])
                let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("travelog_oidc_state=") })
                #expect(cookie.hasPrefix("travelog_oidc_state=\(state);"))
                #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/api/v1/oidc/callback"))
            }
        }
    }

    @Test("callbacks refused before any exchange: the provider's error, no state cookie, a state not pending")
    func callbackRefusals() async throws {
        var app = try await ServerFixture.make().app
        app.oidc = Self.provider()
        try await app.makeApplication().test(.router) { client in
            let cases: [(String, HTTPFields, String)] = [
                ("/api/v1/oidc/callback?error=access_denied", [:], "refused the login: access_denied"),
                ("/api/v1/oidc/callback?code=c&state=s1", [:], "not started in this browser"),
                ("/api/v1/oidc/callback?code=c&state=s1", [.cookie: "travelog_oidc_state=s2"], "not started in this browser"),
                ("/api/v1/oidc/callback?code=c&state=s1", [.cookie: "travelog_oidc_state=s1"], "already used or expired"),
            ]
            for (uri, headers, reason) in cases {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                    #expect(String(buffer: response.body).contains(reason), "\(uri)")
                    #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("travelog_session=") })
                }
            }
            try await client.execute(uri: "/api/v1/oidc/callback", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}
