import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogSQLite
import TravelogServer
import TravelogStore

@Suite("Who may call the API")
struct AuthenticationTests {
    static let protectedRoutes: [(HTTPRequest.Method, String)] = [
        (.post, "/api/v1/owntracks"), (.post, "/api/v1/overland"), (.post, "/api/v1/locations"),
        (.post, "/api/v1/imports"), (.get, "/api/v1/locations"), (.get, "/api/v1/path"), (.get, "/api/v1/latest"),
        (.get, "/api/v1/devices"), (.get, "/api/v1/stats"), (.get, "/api/v1/export"), (.get, "/api/v1/live"),
        (.get, "/api/v1/session"), (.get, "/api/v1/osmand"), (.post, "/api/v1/gpslogger"),
        (.get, "/api/v1/visits"), (.patch, "/api/v1/visits/1"), (.delete, "/api/v1/visits/1"), (.post, "/api/v1/visits/merge"),
        (.get, "/api/v1/trips"), (.get, "/api/v1/places"), (.patch, "/api/v1/places/1"), (.get, "/api/v1/whereabouts"),
        (.post, "/api/v1/journal/process"), (.get, "/api/v1/geocode/reverse?lat=1&lon=1"), (.get, "/api/v1/geocode/forward?q=x"),
        (.get, "/api/v1/notifications/channels"), (.post, "/api/v1/notifications/channels"),
        (.delete, "/api/v1/notifications/channels/1"), (.post, "/api/v1/notifications/test"), (.get, "/api/v1/notifications/log"),
    ]

    @Test("every data route answers 401 without credentials, and with wrong ones")
    func missingAndWrongCredentials() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for (method, path) in Self.protectedRoutes {
                try await client.execute(uri: path, method: method) { response in
                    #expect(response.status == .unauthorized, "\(method) \(path) without credentials")
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
                }
                // A name of its own per route: wrong passwords for one name are throttled after a few.
                try await client.execute(uri: path, method: method, headers: Auth.basic("ada-\(path.hashValue)", "not-her-password")) { response in
                    #expect(response.status == .unauthorized, "\(method) \(path) with a wrong password")
                }
                try await client.execute(uri: path, method: method, headers: Auth.bearer("no-such-token")) { response in
                    #expect(response.status == .unauthorized, "\(method) \(path) with an unknown token")
                }
            }
        }
    }

    @Test("a token presented with another user's name is refused")
    func tokenOfAnotherUser() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("ada", fixture.bobToken)) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("bob", fixture.bobToken)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("a token's digest is its SHA-256 in lower-case hex, as stored since the first version, and blanks round it are ignored")
    func tokenDigestAndBlanks() async throws {
        // FIPS 180-2's vectors: the store holds digests written this way, so a change would lock every phone out.
        #expect(Secrets.digest("abc").rawValue == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secrets.digest("").rawValue == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for written in ["Bearer  \(fixture.bobToken)", "Bearer \t\(fixture.bobToken) \t", "bearer \(fixture.bobToken)"] {
                var headers = HTTPFields()
                headers[.authorization] = written
                try await client.execute(uri: "/api/v1/devices", method: .get, headers: headers) { response in
                    #expect(response.status == .ok, "\(written.debugDescription)")
                }
            }
            var inner = HTTPFields()
            inner[.authorization] = "Bearer \(fixture.bobToken.prefix(10)) \(fixture.bobToken.dropFirst(10))"
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: inner) { response in
                #expect(response.status == .unauthorized, "a blank inside the token is part of it")
            }
        }
    }

    @Test("logging in sets an HttpOnly, SameSite session cookie that opens the API until logout")
    func sessionCookie() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/session", method: .post,
                                     body: ByteBuffer(#"{"user":"ada","password":"wrong-password"}"#)) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.setCookie] == nil)
            }
            let cookie = try await client.execute(uri: "/api/v1/session", method: .post,
                                                  headers: [.contentType: "application/x-www-form-urlencoded"],
                                                  body: ByteBuffer("user=ada&password=\(ServerFixture.adaPassword)")) { response in
                #expect(response.status == .ok)
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.contains("HttpOnly"))
                #expect(setCookie.contains("SameSite=Strict"))
                return String(setCookie.split(separator: ";")[0])
            }
            var headers = HTTPFields()
            headers[.cookie] = cookie
            try await client.execute(uri: "/api/v1/session", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["user"] as? String == "ada")
            }
            // The page's scripts send X-Requested-With (a change with the cookie must show it comes from the page).
            try await client.execute(uri: "/api/v1/session", method: .delete, headers: headers.adding("X-Requested-With", "fetch")) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: headers) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("a forged or unknown session cookie opens nothing")
    func forgedCookie() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            var headers = HTTPFields()
            headers[.cookie] = "travelog_session=\(fixture.adaToken)"
            try await client.execute(uri: "/api/v1/latest", method: .get, headers: headers) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
