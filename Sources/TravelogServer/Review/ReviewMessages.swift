import Foundation
import Logging
import ServiceLifecycle
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogNotify
import TravelogStore

/// A year (or a month) in review on the user's notification channels (issue 33, item 2;
/// `serve --review-messages yearly|monthly`, off by default): once a period has ended, each user
/// with a channel and fixes in it is sent its figures (the review's, as `travelog review` prints
/// them), once. Monthly sends every month's and, in January, the year's as well.
///
/// Days are the server's time zone's (`TZ`); a period is told only within ``graceDays`` of its end,
/// so a server started later, or the option turned on later, sends no old reviews. The message's key
/// is the period (`review:2025`, `review:2025-07`), so a restart, or another process on PostgreSQL,
/// sends nothing twice; a user already told is not computed again.
/// How often reviews are sent (`serve --review-messages`).
public enum ReviewMessagesCadence: String, CaseIterable, Sendable {
    case yearly, monthly
}

struct ReviewMessages: Service {
    typealias Cadence = ReviewMessagesCadence

    let store: any TravelogStore
    let notifications: NotificationDispatcher
    let placeTimeZones: PlaceTimeZones?
    let cadence: Cadence
    var timeZone: TimeZone = .current
    var units: HistoryStatistics.UnitSystem = .metric
    let logger: Logger
    /// Seconds between two looks.
    var intervalSeconds: Double = 3600
    /// The clock (tests set it).
    var now: @Sendable () -> Date = { Date() }
    /// Days after a period's end during which its review is still sent.
    static let graceDays = 7

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await check()
            } catch {
                logger.error("the review messages were not sent: \(error)")
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(intervalSeconds)) }
        }
    }

    /// The periods whose review is due at `now`: those that ended less than ``graceDays`` ago.
    static func due(_ cadence: Cadence, at now: Date, in zone: TimeZone) -> [ReviewPeriod] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.dateComponents([.year, .month], from: now)
        guard let year = today.year, let month = today.month else { return [] }
        var candidates = [ReviewPeriod(year: year - 1)]
        if cadence == .monthly { candidates.append(ReviewPeriod(year: year, month: month).previous) }
        return candidates.filter { period in
            let end = period.range(in: zone).to
            return end <= now && now.timeIntervalSince(end) < Double(graceDays) * 86_400
        }
    }

    /// The message of a period's review.
    static func message(_ review: PeriodReview, units: HistoryStatistics.UnitSystem, at now: Date) -> NotificationMessage {
        let figures = review.figures(units: units)
        return NotificationMessage(
            event: "review", key: "review:\(review.period)", title: "Your \(review.period) in review",
            message: figures.prefix(6).map { "\($0.label): \($0.value)" }.joined(separator: "\n"), occurredAt: now,
            details: ["period": review.period, "firstDay": review.firstDay, "lastDay": review.lastDay,
                      "distanceMeters": String(Int(review.distanceMeters.rounded())), "activeDays": String(review.activeDays.count),
                      "countries": review.countries.map(\.code).joined(separator: ",")])
    }

    /// One look: sends each due review not yet sent. - Returns: the messages queued, by user.
    @discardableResult
    func check() async throws -> [(userID: UserID, message: NotificationMessage)] {
        let time = now()
        let periods = Self.due(cadence, at: time, in: timeZone)
        guard !periods.isEmpty else { return [] }
        var told: [(userID: UserID, message: NotificationMessage)] = []
        for user in try await store.users() where !user.isDisabled {
            guard !(try await store.channels(userID: user.id)).isEmpty else { continue }
            let sent = Set(try await store.deliveries(userID: user.id, limit: 500).map(\.message.key))
            for period in periods where !sent.contains("review:\(period)") {
                let document = try await ReviewDocument.compute(store: store, userID: user.id, period: period, timeZone: timeZone,
                                                                placeTimeZones: placeTimeZones, withLines: false)
                guard document.review.activeDays.count > 0 else { continue }
                let message = Self.message(document.review, units: units, at: time)
                _ = await notifications.notify(message, userID: user.id)
                told.append((user.id, message))
            }
        }
        if !told.isEmpty { logger.info("review messages queued: \(told.count)") }
        return told
    }
}
