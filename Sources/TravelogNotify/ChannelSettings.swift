import Foundation
import TravelogStore

/// A notification channel from what a person typed (`travelog notify add`, the API).
public enum ChannelSettings {
    /// A channel from what a person typed. A URL naming a loopback, private or link-local address
    /// (or `localhost`) is refused unless the policy allows those; a name is checked again on
    /// every send, on the addresses it resolves to then.
    /// - Throws: `ChannelSettingError`, naming what is wrong.
    public static func kind(type: String, url text: String, secret: String?, token: String?,
                            policy: AddressPolicy) throws(ChannelSettingError) -> ChannelKind {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else { throw .invalidURL(text) }
        guard policy.permits(host: host) else {
            throw .refusedAddress(url: text, reason: OutboundError.refusedAddress(host: host).userVisibleResult)
        }
        switch type {
        case "webhook":
            guard let secret, secret.count >= 16 else {
                throw .webhookSecretTooShort(minimumCharacters: 16)
            }
            return .webhook(url: url, secret: secret)
        case "ntfy":
            return .ntfy(url: url, token: token.flatMap { $0.isEmpty ? nil : $0 })
        default:
            throw .unknownType(type)
        }
    }
}

/// Why a channel's settings were refused.
public enum ChannelSettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an http or https URL with a host.
    case invalidURL(String)
    /// The URL names an address the policy does not allow (loopback, private, link-local).
    case refusedAddress(url: String, reason: String)
    case webhookSecretTooShort(minimumCharacters: Int)
    case unknownType(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): "url '\(url)': expected an http or https URL"
        case .refusedAddress(let url, let reason): "url '\(url)': \(reason)"
        case .webhookSecretTooShort(let minimum):
            "secret: a webhook needs a secret of at least \(minimum) characters to sign its messages"
        case .unknownType(let type): "type '\(type)': expected webhook or ntfy"
        }
    }
}
