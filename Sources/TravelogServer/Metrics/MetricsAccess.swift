import Foundation
import TravelogAccounts

/// Who may read `/metrics` (Prometheus counters: requests by route, when phones report). Off by
/// default is too strict for a scrape on the same host, so the default is loopback only.
public enum MetricsAccess: Sendable, Equatable {
    /// `/metrics` answers 404.
    case off
    /// Only clients on this machine, and not through a reverse proxy (a request that carries
    /// `X-Forwarded-For` or `Forwarded` came from elsewhere).
    case loopback
    /// Anyone presenting `Authorization: Bearer <token>`.
    case bearer(token: String)

    /// Whether a request from `address` with these headers may read the metrics.
    func permits(address: String?, forwarded: Bool, authorization: String?) -> Bool {
        switch self {
        case .off: return false
        case .loopback:
            guard !forwarded, let address else { return false }
            return address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
        case .bearer(let token):
            guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
            // Digests compared: the time taken says nothing about the token.
            return Secrets.digest(authorization.dropFirst("Bearer ".count)) == Secrets.digest(token)
        }
    }
}
