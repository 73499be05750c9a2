import Foundation
import Synchronization

/// A token bucket per client address: each address may make `burst` requests at once and
/// `perSecond` more each second after. A plain state machine (the caller passes the time);
/// `ShareRoutes` holds one behind a lock for the public share-link routes, so a link cannot be
/// read (or tokens guessed) faster than a person would.
struct RequestRateLimiter: Sendable {
    struct Bucket: Sendable {
        var tokens: Double
        var updated: Date
    }

    var burst: Double
    var perSecond: Double
    /// Addresses kept at most; when full, the buckets that have refilled are dropped.
    var capacity = 50_000
    private(set) var buckets: [String: Bucket] = [:]

    init(burst: Double = 120, perSecond: Double = 2) {
        self.burst = burst
        self.perSecond = perSecond
    }

    /// Takes one request of `key` at `now`. - Returns: nil when admitted, else the seconds to wait.
    mutating func admit(_ key: String, at now: Date) -> TimeInterval? {
        if buckets.count >= capacity {
            buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.updated) * perSecond < burst }
        }
        var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
        bucket.tokens = min(burst, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
        bucket.updated = now
        guard bucket.tokens >= 1 else {
            buckets[key] = bucket
            return (1 - bucket.tokens) / perSecond
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        return nil
    }
}

/// A `RequestRateLimiter` behind a lock, shared by the routes that use it.
final class RequestRateGate: Sendable {
    let state: Mutex<RequestRateLimiter>

    init(_ limiter: RequestRateLimiter) {
        state = Mutex(limiter)
    }
}
