import Foundation
import Logging
import Testing
import TravelogCore
import TravelogJournal
import TravelogNotify
import TravelogStore
@testable import TravelogServer

/// `serve --review-messages`: a period's review on the user's notification channels, once, in the
/// week after the period ends.
@Suite("Review messages on the notification channels")
struct ReviewMessagesTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("due: last year in its first week, last month too when monthly; nothing later, nothing before its end")
    func due() {
        func due(_ cadence: ReviewMessages.Cadence, _ text: String) -> [String] {
            ReviewMessages.due(cadence, at: Self.date(text), in: Self.utc).map(\.description)
        }
        #expect(due(.yearly, "2026-01-03T08:00:00Z") == ["2025"])
        #expect(due(.monthly, "2026-01-03T08:00:00Z") == ["2025", "2025-12"])
        #expect(due(.yearly, "2026-01-08T00:00:00Z").isEmpty, "a week after, not any more")
        #expect(due(.monthly, "2026-06-02T00:00:00Z") == ["2026-05"])
        #expect(due(.yearly, "2026-06-02T00:00:00Z").isEmpty)
        #expect(due(.monthly, "2026-06-07T23:59:59Z") == ["2026-05"] && due(.monthly, "2026-06-08T00:00:00Z").isEmpty)
        // In Helsinki the year ended two hours before it did in UTC.
        #expect(ReviewMessages.due(.yearly, at: Self.date("2025-12-31T23:00:00Z"), in: TimeZone(identifier: "Europe/Helsinki")!)
            .map(\.description) == ["2025"])
    }

    @Test("a user with a channel and fixes gets December's and the year's review once; one without a channel or without fixes gets none")
    func sends() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        _ = try await store.addChannel(userID: fixture.ada.id, kind: .webhook(url: URL(string: "https://hooks.example.org/travelog")!, secret: "s3cret-s3cret"))
        // A walk on 20 December 2025, and bob's on the same day (bob has no channel).
        let start = Self.date("2025-12-20T10:00:00Z").timeIntervalSince1970
        for device in [fixture.adaPhone, fixture.bobPixel] {
            let fixes = (0..<30).map { minute in
                StoredLocation(deviceID: device.id, location: Location(coordinate: Coordinate(validLatitude: 52.52, longitude: 13.40 + Double(minute) * 0.001)!,
                                                                        horizontalAccuracyMeters: 10, timestamp: Date(timeIntervalSince1970: start + Double(minute) * 60)),
                               source: .api)
            }
            _ = try await store.insert(fixes)
        }
        var reviews = ReviewMessages(store: store, notifications: fixture.app.notifications, placeTimeZones: nil, cadence: .monthly,
                                     timeZone: Self.utc, logger: Logger(label: "review-test"))
        reviews.now = { Self.date("2026-01-02T09:00:00Z") }
        let told = try await reviews.check()
        #expect(told.map(\.userID) == [fixture.ada.id, fixture.ada.id])
        #expect(told.map(\.message.key) == ["review:2025", "review:2025-12"])
        let december = try #require(told.last?.message)
        #expect(december.title == "Your 2025-12 in review" && december.event == "review")
        #expect(december.message.hasPrefix("Distance: ") && december.message.contains("on 1 day with fixes"), "\(december.message)")
        #expect(december.details["activeDays"] == "1" && december.details["period"] == "2025-12")
        #expect(Int(december.details["distanceMeters"] ?? "") ?? 0 > 1_500, "29 steps of about 68 m")
        let queued = try await store.deliveries(userID: fixture.ada.id, limit: 10)
        #expect(Set(queued.map(\.message.key)) == ["review:2025", "review:2025-12"])

        // An hour later: nothing again. In February: January had no fixes, so nothing.
        #expect(try await reviews.check().isEmpty)
        reviews.now = { Self.date("2026-02-01T09:00:00Z") }
        #expect(try await reviews.check().isEmpty)
    }
}
