import Foundation
import TravelogStore

/// Why a two-factor operation was refused.
public enum TwoFactorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store keeps no second factor (a backend without `TwoFactorStore`).
    case unsupportedStore
    case unknownUser(name: String)
    /// Enabling again while it is on: disable it first (that takes the password again).
    case alreadyEnabled
    /// A confirmation without a secret waiting for it.
    case notStarted
    /// The code is not the app's current one (or was used already).
    case wrongCode
    case account(AccountError)

    public var description: String {
        switch self {
        case .unsupportedStore: "this store cannot keep a second factor"
        case .unknownUser(let name): "no user named '\(name)'"
        case .alreadyEnabled: "two-factor login is on already: disable it first to set up a new secret"
        case .notStarted: "no two-factor secret waits for confirmation: enable it first"
        case .wrongCode: "the code is wrong or was used already: type the 6 digits the app shows now"
        case .account(let error): error.description
        }
    }
}

/// A new second factor as it is shown once: the secret (base32), the URI an authenticator app
/// scans, and the ten recovery codes (only their digests are kept).
public struct TwoFactorSetup: Sendable, Equatable {
    public var secret: String
    public var uri: String
    public var recoveryCodes: [String]
}

/// The state of a user's second factor, as listed.
public struct TwoFactorStatus: Sendable, Equatable {
    /// A login asks for a code.
    public var isEnabled: Bool
    /// A secret was made and waits for a code to confirm it.
    public var isPending: Bool
    public var recoveryCodesLeft: Int

    public static let off = TwoFactorStatus(isEnabled: false, isPending: false, recoveryCodesLeft: 0)
}

/// One-time recovery codes: 10 of 10 base32 characters (50 bits each), shown as `xxxxx-xxxxx`;
/// read in either case, with or without the dash and spaces. Kept as SHA-256 digests, as tokens are
/// (guessing one is as hard as guessing a 50-bit key, and the login throttle stands in front).
public enum RecoveryCodes {
    public static let count = 10

    public static func make() -> [String] {
        (0..<count).map { _ in
            let text = Base32.encode(TOTP.newSecret()).lowercased()
            return String(text.prefix(5)) + "-" + String(text.dropFirst(5).prefix(5))
        }
    }

    /// The form a code is digested in: lowercase, no dash or space.
    public static func normalized(_ code: String) -> String {
        code.lowercased().filter { $0 != "-" && !$0.isWhitespace }
    }

    public static func digest(_ code: String) -> SecretDigest {
        Secrets.digest("recovery:" + normalized(code))
    }

    /// Whether a text may be a recovery code (not a 6-digit TOTP code).
    static func looksLikeOne(_ code: String) -> Bool {
        let text = normalized(code)
        return text.count == 10 && Base32.decode(text) != nil
    }
}
