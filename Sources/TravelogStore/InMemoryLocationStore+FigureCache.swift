import Foundation
import TravelogCore

extension InMemoryLocationStore: FigureCacheStore {
    public func dailyFixCounts(userID: UserID, days: ClosedRange<Int>) async throws(StoreError) -> [DailyFixCount] {
        withState { state in
            var counts: [DeviceID: [Int: (count: Int, times: Int64)]] = [:]
            for (deviceID, device) in state.devices where device.userID == userID {
                for stored in state.locations[deviceID] ?? [] {
                    let day = Int((stored.location.timestamp.timeIntervalSince1970 / 86_400).rounded(.down))
                    guard days.contains(day) else { continue }
                    counts[deviceID, default: [:]][day, default: (0, 0)].count += 1
                    counts[deviceID]![day]!.times &+= StoragePrecision.milliseconds(stored.location.timestamp)
                }
            }
            return counts.flatMap { device, byDay in
                byDay.map { DailyFixCount(deviceID: device, day: $0.key, count: $0.value.count, version: $0.value.times) }
            }
        }
    }

    public func cachedFigures(userID: UserID, kind: String, slots: ClosedRange<Int>) async throws(StoreError) -> [Int: CachedFigures] {
        withState { state in (state.figureCache[userID]?[kind] ?? [:]).filter { slots.contains($0.key) } }
    }

    public func storeCachedFigures(userID: UserID, kind: String, _ figures: [Int: CachedFigures]) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            state.figureCache[userID, default: [:]][kind, default: [:]].merge(figures) { $1 }
        }
    }
}
