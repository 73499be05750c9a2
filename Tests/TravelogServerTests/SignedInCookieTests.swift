import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer

/// The page asks who is logged in only after a login in this browser, so a visitor causes no 401 in
/// the browser's console: the login sets a readable cookie beside the session's, and logging out
/// clears both.
@Suite("The page's signed-in hint")
struct SignedInCookieTests {
    @Test("logging in sets a readable travelog_signed_in cookie that holds no secret; logging out clears it")
    func hintCookie() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let cookies = try await client.execute(uri: "/api/v1/session", method: .post, headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(#"{"user":"ada","password":"\#(ServerFixture.adaPassword)"}"#)) { response in
                #expect(response.status == .ok)
                return response.headers[values: .setCookie]
            }
            let hint = try #require(cookies.first { $0.hasPrefix("travelog_signed_in=") })
            #expect(hint.hasPrefix("travelog_signed_in=1;"))
            #expect(!hint.contains("HttpOnly"), "the page's script must read it")
            #expect(hint.contains("SameSite=Strict"))
            let session = try #require(cookies.first { $0.hasPrefix("travelog_session=") })
            #expect(session.contains("HttpOnly"))
            var headers = HTTPFields()
            headers[.cookie] = String(session.split(separator: ";")[0])
            let cleared = try await client.execute(uri: "/api/v1/session", method: .delete,
                                                   headers: headers.adding("X-Requested-With", "fetch")) { response in
                #expect(response.status == .noContent)
                return response.headers[values: .setCookie]
            }
            #expect(cleared.contains { $0.hasPrefix("travelog_signed_in=;") && $0.contains("Max-Age=0") })
        }
    }
}
