import Crypto
import Foundation
import _CryptoExtras

/// One public key of a provider's JSON Web Key Set (RFC 7517): RSA (`n`, `e`) or P-256 (`x`, `y`).
struct OIDCJSONWebKey: Decodable, Sendable, Equatable {
    var kty: String
    var kid: String?
    var use: String?
    var alg: String?
    var n: String?
    var e: String?
    var crv: String?
    var x: String?
    var y: String?

    /// Whether this key may check a signature made with `algorithm` (RFC 7518 names).
    func fits(_ algorithm: OIDCSignatureAlgorithm) -> Bool {
        guard use == nil || use == "sig", alg == nil || alg == algorithm.rawValue else { return false }
        switch algorithm {
        case .rs256, .rs384, .rs512: return kty == "RSA"
        case .es256: return kty == "EC" && crv == "P-256"
        }
    }

    /// Whether `signature` is this key's over `input` (the JWS signing input, `header.payload`).
    func verifies(_ signature: Data, over input: Data, with algorithm: OIDCSignatureAlgorithm) -> Bool {
        switch algorithm {
        case .rs256, .rs384, .rs512:
            guard let n = n.flatMap(Base64URL.decode), let e = e.flatMap(Base64URL.decode),
                  let key = try? _RSA.Signing.PublicKey(n: n, e: e) else { return false }
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            switch algorithm {
            case .rs384: return key.isValidSignature(rsaSignature, for: SHA384.hash(data: input), padding: .insecurePKCS1v1_5)
            case .rs512: return key.isValidSignature(rsaSignature, for: SHA512.hash(data: input), padding: .insecurePKCS1v1_5)
            default: return key.isValidSignature(rsaSignature, for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
            }
        case .es256:
            guard let x = x.flatMap(Base64URL.decode), let y = y.flatMap(Base64URL.decode), x.count == 32, y.count == 32,
                  let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: SHA256.hash(data: input))
        }
    }
}

/// A provider's key set, as its `jwks_uri` serves it.
struct OIDCJSONWebKeySet: Decodable, Sendable, Equatable {
    var keys: [OIDCJSONWebKey]
}

/// The JWS algorithms an ID token may be signed with. HMAC (`HS256`, keyed with the client
/// secret) and `none` are refused: a public key proves the provider signed it.
enum OIDCSignatureAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512", es256 = "ES256"
}

/// Base64 with the URL alphabet and no padding (RFC 4648 §5), as JOSE writes it.
enum Base64URL {
    static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
