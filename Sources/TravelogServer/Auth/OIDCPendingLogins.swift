import Foundation

/// The logins sent to the provider and not yet back, by their `state`: each is taken once (a
/// replayed callback finds nothing), lives `lifetimeSeconds`, and at most `capacity` wait at once
/// (the oldest is dropped first), so unauthenticated visits to the login route cannot fill memory.
struct OIDCPendingLogins: Sendable {
    struct Login: Sendable, Equatable {
        var nonce: String
        /// PKCE's secret (RFC 7636), sent with the code; its S256 hash went with the request.
        var codeVerifier: String
        var redirectURI: String
        var startedAt: Date
        /// Where on the page the browser goes after the login (a local path, checked).
        var returnTo: String = "/"
    }

    static let lifetimeSeconds: Double = 600
    let capacity: Int
    private var logins: [String: Login] = [:]

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    var count: Int { logins.count }

    mutating func start(state: String, _ login: Login) {
        logins = logins.filter { login.startedAt.timeIntervalSince($0.value.startedAt) < Self.lifetimeSeconds }
        while logins.count >= capacity, let oldest = logins.min(by: { $0.value.startedAt < $1.value.startedAt }) {
            logins[oldest.key] = nil
        }
        logins[state] = login
    }

    /// The login started with `state`, removed; `nil` when unknown, already taken or expired.
    mutating func take(state: String, now: Date) -> Login? {
        guard let login = logins.removeValue(forKey: state),
              now.timeIntervalSince(login.startedAt) < Self.lifetimeSeconds else { return nil }
        return login
    }
}
