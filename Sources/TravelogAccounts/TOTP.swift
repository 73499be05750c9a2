import Crypto
import Foundation

/// Time-based one-time passwords as authenticator apps make them: RFC 6238 (TOTP) over RFC 4226
/// (HOTP) with HMAC-SHA1, a 30-second step counted from 1970 and 6 digits, the parameters every
/// app assumes when an `otpauth://` URI names none.
public struct TOTP: Sendable, Equatable {
    /// The shared secret's bytes (RFC 4226 § 4 asks for at least 128 bits; Travelog makes 160).
    public let secret: [UInt8]
    public let digits: Int
    public let stepSeconds: Int64

    public static let secretBytes = 20
    /// Steps accepted on either side of the current one: a phone's clock a little off, a code typed late.
    public static let toleranceSteps: Int64 = 1

    public init(secret: [UInt8], digits: Int = 6, stepSeconds: Int64 = 30) {
        self.secret = secret
        self.digits = digits
        self.stepSeconds = stepSeconds
    }

    /// A new secret of 160 bits from the system's generator.
    public static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<secretBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The step (RFC 6238's T) that holds `date`.
    public func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(stepSeconds)).rounded(.down))
    }

    /// The code of a step: HOTP (RFC 4226 § 5.3) of the step as a big-endian 64-bit counter,
    /// dynamically truncated and reduced to `digits` decimal digits, with leading zeros.
    public func code(step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(digits - value.count, 0)) + value
    }

    /// The step within the tolerance whose code `code` is (the latest when two match), or nil.
    /// Spaces in the code are ignored (apps show "123 456").
    public func matchingStep(of code: String, at date: Date) -> Int64? {
        let typed = code.filter { !$0.isWhitespace }
        guard typed.count == digits, typed.allSatisfy(\.isASCII), typed.allSatisfy(\.isNumber) else { return nil }
        let now = step(at: date)
        var found: Int64?
        for step in (now - Self.toleranceSteps)...(now + Self.toleranceSteps) {
            // Compared in full whatever matches, so the time taken says nothing of which step did.
            if Self.constantTimeEqual(self.code(step: step), typed) { found = step }
        }
        return found
    }

    /// The `otpauth://totp/` URI an authenticator app scans (Google Authenticator's Key Uri Format):
    /// the label is `issuer:account`, and the issuer is repeated as a parameter.
    public func uri(issuer: String, account: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let label = "\(issuer):\(account)".addingPercentEncoding(withAllowedCharacters: allowed.union(CharacterSet(charactersIn: ":"))) ?? ""
        let issuerParameter = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(issuerParameter)"
            + "&algorithm=SHA1&digits=\(digits)&period=\(stepSeconds)"
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

/// RFC 4648 § 6 base32 (A–Z, 2–7), how authenticator apps take a secret typed by hand; written
/// without padding, read with or without it, in either case, ignoring spaces.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { text.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a base32 text; nil when it holds another character.
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return bytes
    }
}
