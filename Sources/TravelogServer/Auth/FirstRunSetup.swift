import Foundation
import Synchronization
import TravelogAccounts

/// The one-time link that lets a person claim a server that has no account yet. `travelog serve`
/// makes it at start when the database has no user and prints it on its own terminal (standard
/// error, the server's log) and nowhere else: whoever opens it creates the first account, who is
/// the administrator. It is a random 256-bit secret, works once, and is never stored, so a restart
/// prints a new one (the old one no longer works). Without it, nobody on the network can claim the
/// server; the page tells a visitor to ask for the link.
public final class FirstRunSetup: Sendable {
    private let token: Mutex<String?>

    public init(token: String = Secrets.newSecret()) {
        self.token = Mutex(token)
    }

    /// The path and fragment to open, such as `/#setup=TOKEN`: a fragment never reaches a
    /// server's or a proxy's access log, nor a `Referer`.
    public var path: String? {
        token.withLock { $0.map { "/#setup=\($0)" } }
    }

    /// Whether the link still works.
    public var isOpen: Bool { token.withLock { $0 != nil } }

    /// Whether `candidate` is the link's token (the comparison takes the same time wherever the two differ).
    func matches(_ candidate: String) -> Bool {
        token.withLock { current in current.map { Self.equal($0, candidate) } ?? false }
    }

    /// Uses the link up: `true` once for its token, `false` after (or for another string).
    func take(_ candidate: String) -> Bool {
        token.withLock { current in
            guard let value = current, Self.equal(value, candidate) else { return false }
            current = nil
            return true
        }
    }

    /// Makes a taken token work again (the account could not be made: a password too short).
    func giveBack(_ value: String) {
        token.withLock { current in if current == nil { current = value } }
    }

    /// Compares every byte, so the time taken does not say where two strings differ.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
