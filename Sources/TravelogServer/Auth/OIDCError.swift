import Foundation

/// Why a single sign-on failed: discovery, the token exchange, or a check of the ID token.
public enum OIDCError: Error, Equatable, CustomStringConvertible {
    /// The provider's discovery document or key set could not be fetched or read.
    case providerUnreachable(url: String, reason: String)
    /// The discovery document lacks a field or names another issuer.
    case badDiscovery(String)
    /// The token endpoint refused the code or answered something else than tokens.
    case tokenExchangeFailed(String)
    /// The ID token is not a compact JWS with a JSON header and claims.
    case malformedToken(String)
    /// The header names an algorithm this server does not accept (`none`, HMAC, unknown ones).
    case unsupportedAlgorithm(String)
    /// No key of the provider's key set has this `kid` and algorithm.
    case unknownKey(kid: String?)
    /// No key of the provider's set verifies the signature.
    case badSignature
    case wrongIssuer(String)
    case wrongAudience
    /// Several audiences and no `azp`, or an `azp` naming another client.
    case wrongAuthorizedParty
    case expired
    /// Issued in the future (beyond the allowed clock skew).
    case issuedInFuture
    case nonceMismatch
    /// The claim chosen with `--oidc-user-claim` is absent (or, for `email`, not verified).
    case missingClaim(String)

    public var description: String {
        switch self {
        case .providerUnreachable(let url, let reason): "the OpenID provider at \(url) could not be reached or read: \(reason)"
        case .badDiscovery(let reason): "the OpenID provider's discovery document is not usable: \(reason)"
        case .tokenExchangeFailed(let reason): "the OpenID provider did not exchange the code for tokens: \(reason)"
        case .malformedToken(let reason): "the ID token is malformed: \(reason)"
        case .unsupportedAlgorithm(let alg): "the ID token is signed with \(alg), which is not accepted (RS256, RS384, RS512, ES256)"
        case .unknownKey(let kid): "no key of the provider's key set matches the ID token's (kid \(kid ?? "none"))"
        case .badSignature: "the ID token's signature does not verify with the provider's keys"
        case .wrongIssuer(let issuer): "the ID token was issued by \(issuer), not by the configured provider"
        case .wrongAudience: "the ID token is not meant for this server (audience)"
        case .wrongAuthorizedParty: "the ID token was issued to another client (azp)"
        case .expired: "the ID token has expired"
        case .issuedInFuture: "the ID token is issued in the future"
        case .nonceMismatch: "the ID token's nonce is not this login's"
        case .missingClaim(let claim): "the ID token has no usable '\(claim)' claim"
        }
    }
}
