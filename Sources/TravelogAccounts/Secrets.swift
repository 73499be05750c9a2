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
        // Every request with a token computes one: hex digits written into one buffer, not a String
        // per byte joined (that was 2.7 % of the server's CPU under a loop of such requests, in perf).
        let hash = SHA256.hash(data: Data(secret.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(2 * SHA256.byteCount)
        for byte in hash {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return SecretDigest(rawValue: String(decoding: hex, as: UTF8.self))
    }
}
