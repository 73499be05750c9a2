import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TravelogJournal
import TravelogStore

/// Keeps each user's review figures current in the background (issue 33: a year's review in seconds):
/// every ``intervalSeconds`` it makes sure the current year's days (with their lines) and weeks of
/// trips are kept (and, in January, the last year's: `PeriodReviewBuilder.keep`), which reads only
/// the days and weeks whose fixes or visits changed since they were kept. So the page's review, its
/// image and `travelog review` read kept figures, not the year's fixes.
///
/// A review is kept per time zone (local days differ): the zone a user last asked for a review in
/// (``noteRequest(userID:timeZone:)``, from the review route), else the server's. It waits for the
/// journal first, as the route does, so the weeks' trips are those of the visits found.
final class ReviewKeeper: Service, Sendable {
    let store: any TravelogStore
    let journal: JournalService
    let placeTimeZones: PlaceTimeZones?
    let logger: Logger
    /// Seconds between two rounds, and before the first (so a starting server serves first).
    let intervalSeconds: Double
    private let zones = Mutex<[UserID: String]>([:])

    init(store: any TravelogStore, journal: JournalService, placeTimeZones: PlaceTimeZones?, logger: Logger,
         intervalSeconds: Double = 600) {
        self.store = store
        self.journal = journal
        self.placeTimeZones = placeTimeZones
        self.logger = logger
        self.intervalSeconds = intervalSeconds
    }

    /// The zone a user asked a review in: the one kept for them from now on.
    func noteRequest(userID: UserID, timeZone: TimeZone) {
        zones.withLock { $0[userID] = timeZone.identifier }
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(self.intervalSeconds)) }
            guard !Task.isShuttingDownGracefully && !Task.isCancelled else { return }
            do {
                try await keep()
            } catch {
                logger.warning("the reviews' figures were not kept: \(error)")
            }
        }
    }

    /// One round: every enabled user's current year (and last year's in January) in their zone.
    /// - Returns: the periods computed, by user.
    @discardableResult
    func keep(now: Date = Date()) async throws -> [(userID: UserID, period: ReviewPeriod)] {
        await journal.drain()
        var kept: [(userID: UserID, period: ReviewPeriod)] = []
        for user in try await store.users() where !user.isDisabled {
            let zone = zones.withLock { $0[user.id] }.flatMap(TimeZone.init(identifier:)) ?? .current
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let today = calendar.dateComponents([.year, .month], from: now)
            guard let year = today.year else { continue }
            let periods = [ReviewPeriod(year: year)] + (today.month == 1 ? [ReviewPeriod(year: year - 1)] : [])
            for period in periods {
                guard !Task.isShuttingDownGracefully && !Task.isCancelled else { return kept }
                let started = Date()
                try await ReviewDocument.builder(store: store, timeZone: zone, placeTimeZones: placeTimeZones)
                    .keep(userID: user.id, period: period)
                kept.append((user.id, period))
                let seconds = Date().timeIntervalSince(started)
                if seconds > 5 { logger.info("kept the \(period) review of user \(user.id.rawValue) in \(Int(seconds)) s") }
            }
        }
        return kept
    }
}
