import Foundation
import Logging
import ServiceLifecycle
import TravelogFormats
import TravelogNotify
import TravelogStore

/// Tells a user, through their notification channels, when a device they watch has sent nothing
/// for longer than its "silent after" time, and once more when it reports again; never every
/// minute in between (the store remembers that a silence was told, `setSilenceNotified`).
///
/// A device never heard from is not silent (there is nothing to wait from). Each message's key
/// names the device and the report the silence began after (or the report that ended it), so a
/// restart between telling and remembering does not tell twice.
struct SilenceWatch: Service {
    let store: any DeviceStore
    let notifications: NotificationDispatcher
    let logger: Logger
    /// Seconds between two checks.
    var intervalSeconds: Double = 60
    /// The clock (tests set it).
    var now: @Sendable () -> Date = { Date() }

    /// Whether the device is silent at `now`: watched, not retired, heard from, and not since
    /// longer than its threshold.
    static func isSilent(_ state: DeviceState, now: Date) -> Bool {
        guard let after = state.silentAfterSeconds, state.retiredAt == nil, let heard = state.lastReport?.receivedAt else { return false }
        return now.timeIntervalSince(heard) > Double(after)
    }

    /// One round: tells what changed since the last. - Returns: the messages queued, by user.
    @discardableResult
    func check() async throws(StoreError) -> [(userID: UserID, message: NotificationMessage)] {
        let time = now()
        var told: [(userID: UserID, message: NotificationMessage)] = []
        for (device, state) in try await store.watchedDevices() {
            let silent = Self.isSilent(state, now: time)
            guard silent != state.silenceNotified, let heard = state.lastReport?.receivedAt else { continue }
            let message = silent ? Self.silentMessage(device, since: heard, threshold: state.silentAfterSeconds ?? 0, at: time)
                                 : Self.reportingMessage(device, at: heard)
            _ = await notifications.notify(message, userID: device.userID)
            try await store.setSilenceNotified(silent, deviceID: device.id)
            told.append((device.userID, message))
        }
        return told
    }

    static func silentMessage(_ device: Device, since heard: Date, threshold: Int, at time: Date) -> NotificationMessage {
        NotificationMessage(event: "deviceSilent", key: "device-silent:\(device.id):\(StoragePrecision.milliseconds(heard))",
                            title: "\(device.name) is silent",
                            message: "\(device.name) has not reported for \(duration(time.timeIntervalSince(heard))) (you asked to hear after \(duration(Double(threshold)))).",
                            occurredAt: time,
                            details: ["device": device.name, "lastReport": ISO8601TimeFormatter.string(heard)])
    }

    static func reportingMessage(_ device: Device, at heard: Date) -> NotificationMessage {
        NotificationMessage(event: "deviceReporting", key: "device-reporting:\(device.id):\(StoragePrecision.milliseconds(heard))",
                            title: "\(device.name) reports again", message: "\(device.name) is reporting again.",
                            occurredAt: heard, details: ["device": device.name, "lastReport": ISO8601TimeFormatter.string(heard)])
    }

    /// `3 h 20 min`, `2 d 4 h`, `45 min`.
    static func duration(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        if minutes < 60 { return "\(max(1, minutes)) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await check()
                } catch {
                    logger.warning("checking silent devices failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(intervalSeconds))
            }
        }
    }
}
