import Crypto
import Foundation
import TravelogStore

/// New secrets (device tokens, session ids) and their digests. A secret is 32 random bytes from the
/// system's generator, written as URL-safe base64 without padding (43 characters), so it can sit in
/// a URL query or a password field unchanged.
public enum Secrets {
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 digest the store keeps instead of the secret.
    public static func digest(_ secret: some StringProtocol) -> SecretDigest {
        let hash = SHA256.hash(data: Data(secret.utf8))
        return SecretDigest(rawValue: hash.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined())
    }
}
