import Foundation

/// The claims of an ID token that Travelog reads.
struct OIDCIDTokenClaims: Sendable, Equatable {
    var subject: String
    var email: String?
    var emailVerified: Bool?
    var preferredUsername: String?
    var name: String?
}

/// Checks an ID token as OpenID Connect Core 1.0 §3.1.3.7 asks: a JWS signed by one of the
/// provider's keys (RS256/384/512 or ES256; never `none` or HMAC), `iss` the configured issuer,
/// `aud` holding the client id (and `azp` the client id when there are several audiences or an
/// `azp` at all), `exp` not passed and `iat` not in the future beyond `clockSkewSeconds`, and
/// `nonce` the one this login sent. No network: the keys are given.
struct OIDCTokenVerifier: Sendable {
    var issuer: String
    var clientID: String
    /// How far the provider's clock may be from this one, seconds.
    var clockSkewSeconds: Double = 60

    private struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    private struct Claims: Decodable {
        var iss: String?
        var sub: String?
        var aud: Audience?
        var azp: String?
        var exp: Double?
        var iat: Double?
        var nonce: String?
        var email: String?
        var email_verified: Bool?
        var preferred_username: String?
        var name: String?
    }

    /// `aud` is a string or an array of strings (RFC 7519 §4.1.3).
    private struct Audience: Decodable {
        var values: [String]
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) { values = [one] } else { values = try container.decode([String].self) }
        }
    }

    /// The token's claims once every check passed.
    /// - Throws: `OIDCError.unknownKey` when no key has the token's `kid` (the caller may fetch
    ///   the key set again: the provider may have rotated its keys), or the first failed check.
    func verify(_ token: String, keys: OIDCJSONWebKeySet, nonce expectedNonce: String, now: Date) throws(OIDCError) -> OIDCIDTokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedToken("expected three dot-separated parts, found \(parts.count)") }
        guard let headerData = Base64URL.decode(parts[0]), let header = try? JSONDecoder().decode(Header.self, from: headerData) else {
            throw .malformedToken("the header is not base64url JSON with an 'alg'")
        }
        guard let algorithm = OIDCSignatureAlgorithm(rawValue: header.alg) else { throw .unsupportedAlgorithm(header.alg) }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformedToken("the signature is not base64url") }
        let candidates = keys.keys.filter { $0.fits(algorithm) && (header.kid == nil || $0.kid == header.kid) }
        guard !candidates.isEmpty else { throw .unknownKey(kid: header.kid) }
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        guard candidates.contains(where: { $0.verifies(signature, over: input, with: algorithm) }) else { throw .badSignature }

        guard let claimsData = Base64URL.decode(parts[1]), let claims = try? JSONDecoder().decode(Claims.self, from: claimsData) else {
            throw .malformedToken("the claims are not base64url JSON of the expected types")
        }
        guard claims.iss == issuer else { throw .wrongIssuer(claims.iss ?? "nobody") }
        guard let audiences = claims.aud?.values, audiences.contains(clientID) else { throw .wrongAudience }
        if audiences.count > 1 || claims.azp != nil {
            guard claims.azp == clientID else { throw .wrongAuthorizedParty }
        }
        let seconds = now.timeIntervalSince1970
        guard let exp = claims.exp, exp + clockSkewSeconds > seconds else { throw .expired }
        guard let iat = claims.iat, iat - clockSkewSeconds <= seconds else { throw .issuedInFuture }
        guard let nonce = claims.nonce, Self.constantTimeEqual(nonce, expectedNonce) else { throw .nonceMismatch }
        guard let subject = claims.sub, !subject.isEmpty else { throw .missingClaim("sub") }
        return OIDCIDTokenClaims(subject: subject, email: claims.email, emailVerified: claims.email_verified,
                                 preferredUsername: claims.preferred_username, name: claims.name)
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
