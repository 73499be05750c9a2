import Foundation
import HummingbirdBcrypt
import Synchronization
import TravelogStore

/// Share links' passwords: bcrypt hashes of the server's cost, checked on the hashing thread and
/// throttled as logins are (per link and per client address), so a link's password cannot be
/// guessed faster than an account's.
extension AccountService {
    /// The hash a link keeps of its password. - Throws: `AccountError.passwordTooShort`.
    func sharePasswordHash(_ password: String) async throws(AccountError) -> String {
        try Self.check(password)
        let cost = bcryptCost
        return try await Self.offload(cost: cost) { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the link's.
    /// - Throws: `AccountError.throttled` while the link or the address must wait.
    public func checkSharePassword(_ password: String, hash: String, share: ShareID, from address: String?) async throws(AccountError) -> Bool {
        let keys = [LoginThrottle.Key.user("share link \(share)")] + (address.map { [LoginThrottle.Key.address($0)] } ?? [])
        let wait = throttle.withLock { $0.waitSeconds(keys, at: Date()) }
        if wait > 0 { throw .throttled(retryAfterSeconds: Int(wait.rounded(.up))) }
        passwordChecks.add(1, ordering: .relaxed)
        let matches = try await Self.offload(cost: Self.cost(ofHash: hash)) { Bcrypt.verify(password, hash: hash) }
        if matches {
            throttle.withLock { $0.succeeded(user: "share link \(share)") }
        } else {
            throttle.withLock { $0.failed(keys, at: Date()) }
        }
        return matches
    }
}
