import Foundation

/// Failed password checks, per user name and per client address, with an exponential delay: after
/// `freeFailures` wrong passwords in a row, the next check is refused (without spending bcrypt on
/// it) until `baseDelaySeconds · 2^(excess failures − 1)` have passed, at most `maxDelaySeconds`.
/// A right password clears its name's count (not its address's: one account must not unlock
/// guessing at all the others). Device tokens never come here.
///
/// A plain state machine: the caller passes the time; `AccountService` holds one behind a lock.
struct LoginThrottle: Sendable {
    /// A name or an address whose failures are counted.
    enum Key: Hashable, Sendable {
        case user(String)
        case address(String)
    }

    struct Record: Sendable, Equatable {
        var failures: Int
        var blockedUntil: Date
    }

    /// Wrong passwords allowed before any delay, per user name.
    var freeFailuresPerUser = 5
    /// Per address: more, since several people may share one (a home, an office, a proxy).
    var freeFailuresPerAddress = 20
    var baseDelaySeconds: TimeInterval = 1
    var maxDelaySeconds: TimeInterval = 15 * 60
    /// Records kept at most (the oldest blocks are dropped first when full).
    var capacity = 100_000

    private(set) var records: [Key: Record] = [:]

    /// Seconds until a check for these keys may run again; 0 when it may run now.
    func waitSeconds(_ keys: [Key], at now: Date) -> TimeInterval {
        keys.compactMap { records[$0]?.blockedUntil.timeIntervalSince(now) }.max().map { max($0, 0) } ?? 0
    }

    /// Counts a wrong password for every key and sets their delays.
    mutating func failed(_ keys: [Key], at now: Date) {
        if records.count >= capacity { records = records.filter { $0.value.blockedUntil > now } }
        for key in keys {
            var record = records[key] ?? Record(failures: 0, blockedUntil: now)
            record.failures += 1
            let free = if case .user = key { freeFailuresPerUser } else { freeFailuresPerAddress }
            let excess = record.failures - free
            if excess > 0 {
                let delay = min(baseDelaySeconds * pow(2, Double(min(excess - 1, 30))), maxDelaySeconds)
                record.blockedUntil = now.addingTimeInterval(delay)
            }
            records[key] = record
        }
    }

    /// A right password: the name's count starts again.
    mutating func succeeded(user name: String) {
        records[.user(name)] = nil
    }
}
