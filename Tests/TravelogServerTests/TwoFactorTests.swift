import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
@testable import TravelogAccounts
@testable import TravelogServer
import TravelogStore

@Suite("Two-factor login")
struct TwoFactorTests {
    /// RFC 6238 appendix B, SHA1 column: the 20-byte ASCII secret "12345678901234567890", 8 digits.
    @Test("TOTP gives the codes of RFC 6238's test vectors (SHA1)", arguments: [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ] as [(Int64, String)])
    func rfc6238Vectors(seconds: Int64, code: String) {
        let totp = TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(totp.code(step: totp.step(at: date)) == code)
        #expect(totp.matchingStep(of: code, at: date) == totp.step(at: date))
    }

    @Test("RFC 4226's HOTP values for the first counters (6 digits), and a code accepted one step either side only")
    func hotpAndTolerance() {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        #expect((0..<4).map { totp.code(step: $0) } == ["755224", "287082", "359152", "969429"])
        let now = Date(timeIntervalSince1970: 1_750_000_015)
        let step = totp.step(at: now)
        for offset: Int64 in -1...1 { #expect(totp.matchingStep(of: totp.code(step: step + offset), at: now) == step + offset) }
        #expect(totp.matchingStep(of: totp.code(step: step - 2), at: now) == nil)
        #expect(totp.matchingStep(of: totp.code(step: step + 2), at: now) == nil)
        let spaced = String(totp.code(step: step).prefix(3)) + " " + String(totp.code(step: step).dropFirst(3))
        #expect(totp.matchingStep(of: spaced, at: now) == step)
        for bad in ["", "12345", "1234567", "12a456", "١٢٣٤٥٦"] { #expect(totp.matchingStep(of: bad, at: now) == nil, "\(bad)") }
    }

    @Test("base32 of RFC 4648, the otpauth URI, and new secrets of 160 bits")
    func base32AndURI() throws {
        #expect(Base32.encode(Array("12345678901234567890".utf8)) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.decode("mzxw 6ytb oi======") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil)
        let secret = TOTP.newSecret()
        #expect(secret.count == 20 && secret != TOTP.newSecret())
        #expect(Base32.decode(Base32.encode(secret)) == secret)
        let uri = TOTP(secret: Array("12345678901234567890".utf8)).uri(issuer: "Travelog", account: "ada lovelace")
        #expect(uri == "otpauth://totp/Travelog:ada%20lovelace?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Travelog"
                + "&algorithm=SHA1&digits=6&period=30")
        let codes = RecoveryCodes.make()
        #expect(codes.count == 10 && Set(codes).count == 10)
        #expect(codes.allSatisfy { $0.count == 11 && RecoveryCodes.looksLikeOne($0) })
        #expect(RecoveryCodes.digest(codes[0].uppercased().replacingOccurrences(of: "-", with: " ")) == RecoveryCodes.digest(codes[0]))
    }

    static func code(_ secret: String, stepOffset: Int64 = 0) throws -> String {
        let totp = TOTP(secret: try #require(Base32.decode(secret)))
        return totp.code(step: totp.step(at: Date()) + stepOffset)
    }

    static func login(_ client: some TestClientProtocol, password: String = ServerFixture.adaPassword,
                      code: String? = nil) async throws -> (HTTPResponse.Status, [String: Any], String?) {
        let codeField = code.map { #","code":"\#($0)""# } ?? ""
        return try await client.execute(uri: "/api/v1/session", method: .post, headers: [.contentType: "application/json"],
                                        body: ByteBuffer(#"{"user":"ada","password":"\#(password)"\#(codeField)}"#)) { response in
            (response.status, response.body.json as? [String: Any] ?? [:],
             response.headers[values: .setCookie].first { $0.hasPrefix(AuthenticationMiddleware.sessionCookie) })
        }
    }

    @Test("enabled on the page's API: the password alone asks for a code; a code works once; a recovery code once; Basic refused, tokens not")
    func loginNeedsTheCode() async throws {
        let fixture = try await ServerFixture.make()
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        let json: HTTPFields = [.contentType: "application/json"]
        try await fixture.test { client in
            // Nothing waits to be confirmed yet: the account's state, not the request, is wrong (409).
            try await client.execute(uri: "/api/v1/account/two-factor/confirm", method: .post, headers: ada.adding("Content-Type", "application/json"),
                                     body: ByteBuffer(#"{"code":""}"#)) { #expect($0.status == .conflict) }
            let setup = try await client.execute(uri: "/api/v1/account/two-factor", method: .post, headers: ada) { response in
                #expect(response.status == .created)
                return try #require(response.body.json as? [String: Any])
            }
            let secret = try #require(setup["secret"] as? String)
            let recovery = try #require(setup["recoveryCodes"] as? [String])
            #expect(recovery.count == 10)
            #expect((setup["uri"] as? String)?.hasPrefix("otpauth://totp/Travelog:ada?secret=\(secret)") == true)
            #expect((setup["qrSVG"] as? String)?.hasPrefix("<svg") == true)
            // Not on until confirmed: the password alone still logs in.
            try await client.execute(uri: "/api/v1/account/two-factor", method: .get, headers: ada) { response in
                let status = try #require(response.body.json as? [String: Any])
                #expect(status["enabled"] as? Bool == false && status["pending"] as? Bool == true && status["recoveryCodesLeft"] as? Int == 10)
            }
            #expect(try await Self.login(client).0 == .ok)
            try await client.execute(uri: "/api/v1/account/two-factor/confirm", method: .post, headers: ada.adding("Content-Type", "application/json"),
                                     body: ByteBuffer(#"{"code":"\#(recovery[0])"}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/account/two-factor/confirm", method: .post, headers: ada.adding("Content-Type", "application/json"),
                                     body: ByteBuffer(#"{"code":"\#(try Self.code(secret))"}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["enabled"] as? Bool == true)
            }
            // On: the password alone is a 401 that names the second factor.
            let (status, body, cookie) = try await Self.login(client)
            #expect(status == .unauthorized && body["secondFactor"] as? String == "totp" && cookie == nil)
            #expect(try await Self.login(client, password: "wrong-password", code: try Self.code(secret, stepOffset: 1)).1["secondFactor"] == nil)
            #expect(try await Self.login(client, code: "000000").1["secondFactor"] as? String == "totp")
            let next = try Self.code(secret, stepOffset: 1)
            let (okStatus, okBody, session) = try await Self.login(client, code: next)
            #expect(okStatus == .ok && okBody["user"] as? String == "ada" && session != nil)
            // The same code again, and the one before it: refused.
            #expect(try await Self.login(client, code: next).0 == .unauthorized)
            #expect(try await Self.login(client, code: try Self.code(secret)).0 == .unauthorized)
            // A recovery code logs in once.
            #expect(try await Self.login(client, code: recovery[4].uppercased()).0 == .ok)
            #expect(try await Self.login(client, code: recovery[4]).0 == .unauthorized)
            // HTTP Basic with the password: refused, saying what to use; the device token still reads.
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: ada) { response in
                #expect(response.status == .unauthorized)
                #expect(response.body.text.contains("device token"))
            }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.bearer(fixture.adaToken)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("ada", fixture.adaToken)) { #expect($0.status == .ok) }
            // Turning it off takes the password again; the session (cookie) does it, not a token.
            let cookieHeaders = json.adding("Cookie", String(try #require(session).split(separator: ";")[0]))
                .adding("Sec-Fetch-Site", "same-origin")
            try await client.execute(uri: "/api/v1/account/two-factor", method: .get, headers: cookieHeaders) { response in
                #expect((response.body.json as? [String: Any])?["recoveryCodesLeft"] as? Int == 9)
            }
            try await client.execute(uri: "/api/v1/account/two-factor/disable", method: .post, headers: Auth.bearer(fixture.adaToken).adding("Content-Type", "application/json"),
                                     body: ByteBuffer(#"{"password":"\#(ServerFixture.adaPassword)"}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/account/two-factor/disable", method: .post, headers: cookieHeaders,
                                     body: ByteBuffer(#"{"password":"not-the-password"}"#)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/account/two-factor/disable", method: .post, headers: cookieHeaders,
                                     body: ByteBuffer(#"{"password":"\#(ServerFixture.adaPassword)"}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["enabled"] as? Bool == false)
            }
            #expect(try await Self.login(client).0 == .ok)
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: ada) { #expect($0.status == .ok) }
        }
    }

    @Test("wrong codes count in the login throttle, and the right password does not clear them")
    func throttleCountsWrongCodes() async throws {
        let fixture = try await ServerFixture.make()
        let accounts = fixture.app.accounts
        accounts.throttle.withLock { $0.baseDelaySeconds = 3600 }
        let setup = try await accounts.beginTwoFactor(for: fixture.ada)
        try await accounts.confirmTwoFactor(for: fixture.ada, code: try Self.code(setup.secret), from: nil)
        try await fixture.test { client in
            // Five wrong codes are free (each with the right password); the sixth sets a delay.
            for attempt in 0..<6 {
                #expect(try await Self.login(client, code: String(format: "%06d", attempt)).0 == .unauthorized, "attempt \(attempt)")
            }
            try await client.execute(uri: "/api/v1/session", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(#"{"user":"ada","password":"\#(ServerFixture.adaPassword)","code":"\#(try Self.code(setup.secret, stepOffset: 1))"}"#)) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] != nil)
            }
            // Bob is not held up by ada's codes.
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .ok)
            }
        }
        // Not even a recovery code gets through while the delay lasts (and it is not spent).
        let error = await #expect(throws: AccountError.self) {
            try await accounts.logIn(named: "ada", password: ServerFixture.adaPassword, code: setup.recoveryCodes[0], from: nil)
        }
        guard case .throttled(let seconds) = error else { Issue.record("not throttled: \(String(describing: error))"); return }
        #expect(seconds > 800)   // the delay is capped at 15 minutes
        #expect(try await accounts.twoFactorStatus(userID: fixture.ada.id).recoveryCodesLeft == 10)
    }

    @Test("enabling while on is refused, a confirmation needs a waiting secret, and disabling clears the codes")
    func serviceRules() async throws {
        let fixture = try await ServerFixture.make()
        let accounts = fixture.app.accounts
        await #expect(throws: TwoFactorError.notStarted) { try await accounts.confirmTwoFactor(for: fixture.ada, code: "123456", from: nil) }
        let first = try await accounts.beginTwoFactor(for: fixture.ada)
        // Made again before confirming: the newer secret is the one that counts.
        let setup = try await accounts.beginTwoFactor(for: fixture.ada)
        #expect(setup.secret != first.secret && Set(setup.recoveryCodes).isDisjoint(with: first.recoveryCodes))
        await #expect(throws: TwoFactorError.wrongCode) {
            try await accounts.confirmTwoFactor(for: fixture.ada, code: try Self.code(first.secret), from: nil)
        }
        // Turning it on ends the sessions made with the password alone, but the one that turned it on.
        let before = try await accounts.startSession(userID: fixture.ada.id)
        let turningOn = try await accounts.startSession(userID: fixture.ada.id)
        let bobs = try await accounts.startSession(userID: fixture.bob.id)
        try await accounts.confirmTwoFactor(for: fixture.ada, code: try Self.code(setup.secret), from: nil, keepingSession: turningOn)
        #expect(try await accounts.user(session: before) == nil)
        #expect(try await accounts.user(session: turningOn)?.id == fixture.ada.id)
        #expect(try await accounts.user(session: bobs)?.id == fixture.bob.id)
        await #expect(throws: TwoFactorError.alreadyEnabled) { try await accounts.beginTwoFactor(for: fixture.ada) }
        #expect(try await accounts.twoFactorStatus(userID: fixture.ada.id) == TwoFactorStatus(isEnabled: true, isPending: false, recoveryCodesLeft: 10))
        #expect(try await accounts.twoFactorStatus(userID: fixture.bob.id) == .off)
        #expect(try await accounts.logIn(named: "ada", password: ServerFixture.adaPassword, code: nil, from: nil) == .codeNeeded)
        #expect(try await accounts.logIn(named: "bob", password: ServerFixture.bobPassword, code: "123456", from: nil) == .loggedIn(fixture.bob))
        #expect(try await accounts.disableTwoFactor(userID: fixture.ada.id))
        #expect(try await accounts.twoFactorStatus(userID: fixture.ada.id) == .off)
        #expect(try await accounts.logIn(named: "ada", password: ServerFixture.adaPassword, code: nil, from: nil) == .loggedIn(fixture.ada))
    }
}
