import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer
import TravelogStore

/// A page on another origin (another app on the host, a sibling subdomain) tries to act with the
/// visitor's login.
@Suite("Cross-site requests")
struct CrossSiteRequestTests {
    static let point = #"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"}]"#
    static let channel = #"{"type":"ntfy","url":"https://ntfy.example/ada"}"#

    /// Logs ada in; - Returns: the `Cookie` header.
    static func logIn(_ client: any TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/api/v1/session", method: .post, headers: [.contentType: "application/json"],
                                 body: ByteBuffer(#"{"user":"ada","password":"\#(ServerFixture.adaPassword)"}"#)) { response in
            #expect(response.status == .ok)
            return String(try #require(response.headers[.setCookie]).split(separator: ";")[0])
        }
    }

    static func headers(cookie: String, _ extra: [String: String]) -> HTTPFields {
        var headers = HTTPFields()
        headers[.cookie] = cookie
        for (name, value) in extra { headers = headers.adding(name, value) }
        return headers
    }

    @Test("a change with the cookie from another origin, or with no sign of the page, is refused and changes nothing",
          arguments: [["Content-Type": "text/plain"],
                      ["Content-Type": "application/json"],
                      ["Content-Type": "application/json", "Sec-Fetch-Site": "same-site"],
                      ["Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"],
                      ["Content-Type": "text/plain", "Origin": "http://evil.example"],
                      ["Content-Type": "application/json", "Origin": "http://sibling.travelog.example"],
                      ["Content-Type": "application/x-www-form-urlencoded", "Origin": "null"]])
    func refused(extra: [String: String]) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let cookie = try await Self.logIn(client)
            let headers = Self.headers(cookie: cookie, extra)
            try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: headers,
                                     body: ByteBuffer(Self.channel)) { #expect($0.status == .forbidden, "\(extra)") }
            try await client.execute(uri: "/api/v1/locations?source=manual", method: .post, headers: headers,
                                     body: ByteBuffer(Self.point)) { #expect($0.status == .forbidden, "\(extra)") }
            try await client.execute(uri: "/api/v1/session", method: .delete, headers: headers) { #expect($0.status == .forbidden) }
        }
        #expect(try await fixture.app.store.channels(userID: fixture.ada.id).isEmpty)
        #expect(try await fixture.storedCount(fixture.ada) == 0)
    }

    @Test("the page's own requests pass: same-origin by Sec-Fetch-Site, by Origin, or by X-Requested-With",
          arguments: [["Sec-Fetch-Site": "same-origin"], ["Origin": "http://travelog.example:8080"], ["X-Requested-With": "fetch"]])
    func sameOrigin(extra: [String: String]) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let cookie = try await Self.logIn(client)
            var headers = Self.headers(cookie: cookie, extra.merging(["Content-Type": "application/json"]) { $1 })
            headers = headers.adding("Host", "travelog.example:8080")
            try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: headers,
                                     body: ByteBuffer(Self.channel)) { #expect($0.status == .created, "\(extra)") }
            // Same origin, but a body a form could send: not on a JSON route.
            try await client.execute(uri: "/api/v1/notifications/channels", method: .post,
                                     headers: headers.adding("Content-Type", "text/plain"),
                                     body: ByteBuffer(Self.channel)) { #expect($0.status == .unsupportedMediaType) }
        }
        #expect(try await fixture.app.store.channels(userID: fixture.ada.id).count == 1)
    }

    @Test("an <img> pointing at GPSLogger's URL stores nothing with the visitor's cookie; the app's token still works")
    func gpsloggerImage() async throws {
        let fixture = try await ServerFixture.make()
        let query = "lat=52.5&lon=13.4&time=2024-03-01T09:00:00Z"
        try await fixture.test { client in
            let cookie = try await Self.logIn(client)
            try await client.execute(uri: "/api/v1/gpslogger?\(query)", method: .get,
                                     headers: Self.headers(cookie: cookie, ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"])) {
                #expect($0.status == .unauthorized)
            }
            #expect(try await fixture.storedCount(fixture.ada) == 0)
            try await client.execute(uri: "/api/v1/gpslogger?\(query)&token=\(fixture.adaToken)", method: .get,
                                     headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]) { #expect($0.status == .ok) }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }

    @Test("a login from another site is refused (login CSRF); a script's login without browser headers is not")
    func loginCSRF() async throws {
        let fixture = try await ServerFixture.make()
        let form = ByteBuffer("user=ada&password=\(ServerFixture.adaPassword)")
        try await fixture.test { client in
            for extra in [["Sec-Fetch-Site": "cross-site"], ["Origin": "https://evil.example"]] {
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                for (name, value) in extra { headers = headers.adding(name, value) }
                try await client.execute(uri: "/api/v1/session", method: .post, headers: headers, body: form) { response in
                    #expect(response.status == .forbidden, "\(extra)")
                    #expect(response.headers[.setCookie] == nil)
                }
            }
            try await client.execute(uri: "/api/v1/session", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                     body: form) { #expect($0.status == .ok) }
        }
    }

    @Test("logged in already, the page's form login (form-encoded, same origin) is a login, not a 415")
    func formLoginWithCookie() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let cookie = try await Self.logIn(client)
            let headers = Self.headers(cookie: cookie, ["Content-Type": "application/x-www-form-urlencoded", "X-Requested-With": "fetch"])
            try await client.execute(uri: "/api/v1/session", method: .post, headers: headers,
                                     body: ByteBuffer("user=ada&password=\(ServerFixture.adaPassword)")) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie] != nil)
            }
            // Another change with the cookie still takes JSON only.
            try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: headers,
                                     body: ByteBuffer(Self.channel)) { #expect($0.status == .unsupportedMediaType) }
        }
    }

    @Test("token-authenticated phone and script routes do not care where a request says it comes from")
    func tokensUnaffected() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let headers = Auth.bearer(fixture.adaToken).adding("Origin", "https://elsewhere.example").adding("Sec-Fetch-Site", "cross-site")
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: headers, body: ByteBuffer(Self.point)) {
                #expect($0.status == .ok)
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }

    @Test("a password the browser kept from its dialog is refused in a change another site makes; a script's Basic is not")
    func basicFromAnotherSite() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let basic = Auth.basic("ada", ServerFixture.adaPassword)
            let crossSite = basic.adding("Origin", "https://elsewhere.example").adding("Sec-Fetch-Site", "cross-site")
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: crossSite, body: ByteBuffer(Self.point)) { response in
                #expect(response.status == .forbidden)
                #expect(response.body.text.contains("another site"))
            }
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: basic, body: ByteBuffer(Self.point)) {
                #expect($0.status == .ok)
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1, "only the script's request stored")
    }
}
