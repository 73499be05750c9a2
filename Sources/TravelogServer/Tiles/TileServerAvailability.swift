import Foundation
import Synchronization

/// Whether snapshots ask the tile server for their basemap: after a fetch failed, not again for
/// ``pauseSeconds``. A server without internet (or behind a firewall that drops packets) would
/// otherwise wait out the fetch's timeout on every snapshot and on every day thumbnail of the
/// journal before drawing the offline world base.
final class TileServerAvailability: Sendable {
    /// How long the tile server is left alone after a failed fetch, seconds.
    static let pauseSeconds: TimeInterval = 60

    private let pausedUntil = Mutex<Date>(.distantPast)

    /// Whether to ask the tile server now.
    func shouldAsk(now: Date = Date()) -> Bool {
        pausedUntil.withLock { $0 <= now }
    }

    /// A fetch failed at `now`.
    func failed(now: Date = Date()) {
        pausedUntil.withLock { $0 = now.addingTimeInterval(Self.pauseSeconds) }
    }
}
