import Crypto
import Foundation
import Testing
import _CryptoExtras
@testable import TravelogServer

/// The ID token checks of single sign-on, with keys made here (no provider, no network).
@Suite("OpenID Connect: ID token checks")
struct OIDCTokenVerifierTests {
    static let issuer = "https://id.example.test"
    static let clientID = "travelog"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let otherRSAKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let ecKeyBytes = P256.Signing.PrivateKey().rawRepresentation
    static var ecKey: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: ecKeyBytes) }

    static var keySet: OIDCJSONWebKeySet {
        let primitives = try! rsaKey.publicKey.getKeyPrimitives()
        let raw = ecKey.publicKey.rawRepresentation
        return OIDCJSONWebKeySet(keys: [
            OIDCJSONWebKey(kty: "RSA", kid: "rsa-1", use: "sig", alg: "RS256",
                           n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent)),
            OIDCJSONWebKey(kty: "EC", kid: "ec-1", use: "sig", crv: "P-256",
                           x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32))),
        ])
    }

    static func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = ["iss": issuer, "sub": "s-1", "aud": clientID, "iat": now.timeIntervalSince1970 - 10,
                                     "exp": now.timeIntervalSince1970 + 300, "nonce": "n-1", "preferred_username": "alice",
                                     "email": "alice@example.test", "email_verified": true]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    enum Signer { case rsa(_RSA.Signing.PrivateKey), ec, unsigned }

    static func token(_ claims: [String: Any], alg: String = "RS256", kid: String? = "rsa-1", signer: Signer = .rsa(rsaKey)) -> String {
        var header: [String: Any] = ["alg": alg, "typ": "JWT"]
        if let kid { header["kid"] = kid }
        let input = Base64URL.encode(try! JSONSerialization.data(withJSONObject: header))
            + "." + Base64URL.encode(try! JSONSerialization.data(withJSONObject: claims))
        let signature: Data = switch signer {
        case .rsa(let key): try! key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5).rawRepresentation
        case .ec: try! ecKey.signature(for: SHA256.hash(data: Data(input.utf8))).rawRepresentation
        case .unsigned: Data()
        }
        return input + "." + Base64URL.encode(signature)
    }

    func verify(_ token: String, nonce: String = "n-1") throws(OIDCError) -> OIDCIDTokenClaims {
        try OIDCTokenVerifier(issuer: Self.issuer, clientID: Self.clientID)
            .verify(token, keys: Self.keySet, nonce: nonce, now: Self.now)
    }

    @Test("an RS256 token signed by the provider's key, for this client, fresh, with this login's nonce, is accepted")
    func acceptsRS256() throws {
        let claims = try verify(Self.token(Self.claims()))
        #expect(claims == OIDCIDTokenClaims(subject: "s-1", email: "alice@example.test", emailVerified: true,
                                            preferredUsername: "alice", name: nil))
    }

    @Test("an ES256 token signed by the provider's P-256 key is accepted")
    func acceptsES256() throws {
        #expect(try verify(Self.token(Self.claims(), alg: "ES256", kid: "ec-1", signer: .ec)).subject == "s-1")
    }

    @Test("a token signed by another key with the provider's kid is refused (forged)")
    func refusesForged() {
        #expect(throws: OIDCError.badSignature) { try verify(Self.token(Self.claims(), signer: .rsa(Self.otherRSAKey))) }
    }

    @Test("a token whose claims were changed after signing is refused")
    func refusesTampered() {
        let parts = Self.token(Self.claims()).split(separator: ".").map(String.init)
        let changed = Base64URL.encode(try! JSONSerialization.data(withJSONObject: Self.claims(["preferred_username": "admin"])))
        #expect(throws: OIDCError.badSignature) { try verify([parts[0], changed, parts[2]].joined(separator: ".")) }
    }

    @Test("alg none and HMAC (keyed with the client secret) are refused", arguments: ["none", "HS256"])
    func refusesAlgorithms(alg: String) {
        #expect(throws: OIDCError.unsupportedAlgorithm(alg)) { try verify(Self.token(Self.claims(), alg: alg, signer: .unsigned)) }
    }

    @Test("a kid the key set does not hold is an unknown key (the provider may have rotated: the set is fetched again)")
    func unknownKid() {
        #expect(throws: OIDCError.unknownKey(kid: "rsa-2")) { try verify(Self.token(Self.claims(), kid: "rsa-2")) }
    }

    @Test("an RS256 header naming the EC key's kid finds no key (a key signs with its own algorithm only)")
    func algorithmKeyMismatch() {
        #expect(throws: OIDCError.unknownKey(kid: "ec-1")) { try verify(Self.token(Self.claims(), kid: "ec-1")) }
    }

    @Test("another issuer is refused")
    func refusesIssuer() {
        #expect(throws: OIDCError.wrongIssuer("https://evil.example.test")) {
            try verify(Self.token(Self.claims(["iss": "https://evil.example.test"])))
        }
    }

    @Test("a token for another client is refused (audience)")
    func refusesAudience() {
        #expect(throws: OIDCError.wrongAudience) { try verify(Self.token(Self.claims(["aud": "other-client"]))) }
        #expect(throws: OIDCError.wrongAudience) { try verify(Self.token(Self.claims(["aud": ["a", "b"]]))) }
    }

    @Test("several audiences need azp naming this client")
    func authorizedParty() throws {
        #expect(throws: OIDCError.wrongAuthorizedParty) { try verify(Self.token(Self.claims(["aud": [Self.clientID, "other"]]))) }
        #expect(throws: OIDCError.wrongAuthorizedParty) {
            try verify(Self.token(Self.claims(["aud": [Self.clientID, "other"], "azp": "other"])))
        }
        #expect(try verify(Self.token(Self.claims(["aud": [Self.clientID, "other"], "azp": Self.clientID]))).subject == "s-1")
    }

    @Test("expiry: refused once passed by more than the 60 s clock skew, accepted within it")
    func expiry() throws {
        let seconds = Self.now.timeIntervalSince1970
        #expect(throws: OIDCError.expired) { try verify(Self.token(Self.claims(["exp": seconds - 61]))) }
        #expect(throws: OIDCError.expired) { try verify(Self.token(Self.claims(["exp": nil]))) }
        #expect(try verify(Self.token(Self.claims(["exp": seconds - 30]))).subject == "s-1")
    }

    @Test("a token issued more than the clock skew in the future is refused")
    func issuedInFuture() {
        #expect(throws: OIDCError.issuedInFuture) {
            try verify(Self.token(Self.claims(["iat": Self.now.timeIntervalSince1970 + 120])))
        }
    }

    @Test("another login's nonce, or none, is refused")
    func nonce() {
        #expect(throws: OIDCError.nonceMismatch) { try verify(Self.token(Self.claims()), nonce: "n-2") }
        #expect(throws: OIDCError.nonceMismatch) { try verify(Self.token(Self.claims(["nonce": nil]))) }
    }

    @Test("not three base64url parts is malformed")
    func malformed() {
        #expect(throws: (any Error).self) { try verify("a.b") }
        #expect(throws: (any Error).self) { try verify("!!.??.**") }
    }

    @Test("PKCE S256 matches RFC 7636 Appendix B")
    func pkce() {
        #expect(OIDCProvider.codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(OIDCProvider.randomToken().count == 43)
        #expect(OIDCProvider.randomToken() != OIDCProvider.randomToken())
    }

    @Test("a pending login is taken once, and not after ten minutes")
    func pendingLogins() {
        var pending = OIDCPendingLogins()
        let login = OIDCPendingLogins.Login(nonce: "n", codeVerifier: "v", redirectURI: "http://h/cb", startedAt: Self.now)
        pending.start(state: "s1", login)
        pending.start(state: "s2", login)
        #expect(pending.take(state: "s1", now: Self.now + 5) == login)
        #expect(pending.take(state: "s1", now: Self.now + 6) == nil)
        #expect(pending.take(state: "s2", now: Self.now + 601) == nil)
        #expect(pending.take(state: "unknown", now: Self.now) == nil)
    }

    @Test("at most `capacity` logins wait; the oldest goes first")
    func pendingCapacity() {
        var pending = OIDCPendingLogins(capacity: 3)
        for index in 0..<5 {
            pending.start(state: "s\(index)", .init(nonce: "n", codeVerifier: "v", redirectURI: "r", startedAt: Self.now + Double(index)))
        }
        #expect(pending.count == 3)
        #expect(pending.take(state: "s0", now: Self.now + 10) == nil)
        #expect(pending.take(state: "s4", now: Self.now + 10) != nil)
    }

    @Test("the callback's code and state are redacted from logged queries")
    func redaction() {
        #expect(CredentialRedaction.target(path: "/api/v1/oidc/callback", query: "code=abc&state=xyz&session_state=q")
                == "/api/v1/oidc/callback?code=REDACTED&state=REDACTED&session_state=REDACTED")
    }
}
