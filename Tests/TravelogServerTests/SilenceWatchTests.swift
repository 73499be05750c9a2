import Foundation
import Logging
import Synchronization
import Testing
@testable import TravelogServer
import TravelogNotify
import TravelogStore

@Suite("Silent device notifications")
struct SilenceWatchTests {
    @Test("a silent device is told once, and once when it reports again; never every minute")
    func onceEachWay() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let quiet = try await store.addDevice(named: "quiet", userID: ada.id)
        _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/topic")!, token: nil))
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let clock = Mutex(t0)
        let watch = SilenceWatch(store: store, notifications: NotificationDispatcher(store: store), logger: Logger(label: "test"),
                                 now: { clock.withLock { $0 } })
        try await store.setSilentAfter(seconds: 6 * 3600, deviceID: phone.id)
        try await store.setSilentAfter(seconds: 3600, deviceID: quiet.id)  // never heard from: never silent
        try await store.recordReport(DeviceReport(receivedAt: t0), deviceID: phone.id)

        func advance(_ seconds: Double) async throws -> [String] {
            clock.withLock { $0 = $0.addingTimeInterval(seconds) }
            return try await watch.check().map(\.message.event)
        }
        #expect(try await advance(5 * 3600) == [])
        #expect(try await advance(3600 + 60) == ["deviceSilent"])
        for _ in 0..<5 { #expect(try await advance(60) == [], "told once, not every minute") }
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.silenceNotified == true)
        try await store.recordReport(DeviceReport(receivedAt: clock.withLock { $0 }), deviceID: phone.id)
        #expect(try await advance(60) == ["deviceReporting"])
        #expect(try await advance(60) == [])
        let deliveries = try await store.deliveries(userID: ada.id, limit: 10).map(\.message)
        #expect(deliveries.map(\.event).sorted() == ["deviceReporting", "deviceSilent"])
        #expect(deliveries.first { $0.event == "deviceSilent" }?.title == "phone is silent")
        #expect(deliveries.first { $0.event == "deviceSilent" }?.message.contains("6 h 1 min") == true)
        // Retired: no longer watched, nothing told.
        try await store.retireDevice(id: phone.id, at: clock.withLock { $0 })
        #expect(try await advance(86_400) == [])
    }

    @Test("durations read as people say them")
    func durations() {
        #expect(SilenceWatch.duration(30) == "1 min")
        #expect(SilenceWatch.duration(45 * 60) == "45 min")
        #expect(SilenceWatch.duration(3 * 3600) == "3 h")
        #expect(SilenceWatch.duration(3 * 3600 + 20 * 60) == "3 h 20 min")
        #expect(SilenceWatch.duration(52 * 3600) == "2 d 4 h")
    }
}
