import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TravelogCore
import TravelogJournal
import TravelogRouting
import TravelogStore

/// Matches the journal's trips to the roads in the background (``TripRoads``): after the journal
/// processed a device's new fixes, when a read of the trips found some not matched yet (after an
/// edit, or an extract added), and at start for the last ``startDays`` days. Never on a request's
/// task: each trip is matched on the map matching's own queue (`MatchRoutes.matching`, one match at
/// a time) and stored at once, so the work is resumable (what is stored stays done) and a step is
/// one trip (at most ``TripRoads/maximumFixes`` fixes).
public final class TripRoadsService: Service, Sendable {
    /// Days before now whose trips are matched at start, a window at a time.
    static let startDays = 30
    /// The widest stretch read at once, seconds: a journal run's stretch is read in windows this long.
    static let windowSeconds: TimeInterval = 7 * 86_400

    let store: any LocationStore & AccountStore & JournalStore
    let logger: Logger
    private let network = Mutex<RoadNetwork?>(nil)
    /// Stretches to look at, per user, in the order asked (coalesced when the same).
    private let work = Mutex<[(userID: UserID, from: Date, to: Date)]>([])
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    /// Trips matched since start, and stretches the journal's runs asked for (tests and logs).
    private let matchedCount = Mutex(0)
    private let journalRequestCount = Mutex(0)

    init(store: any LocationStore & AccountStore & JournalStore, logger: Logger) {
        self.store = store
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The road graphs trips are matched on (`TravelogServerApp.roadNetwork`).
    func setNetwork(_ roads: RoadNetwork?) { network.withLock { $0 = roads } }

    /// The matching as it stands: the road graphs and the store of matches.
    var roads: TripRoads { TripRoads(network: network.withLock { $0 }, store: store as? any TripMatchStore) }

    /// How many trips were matched and stored since start.
    public var matched: Int { matchedCount.withLock { $0 } }
    /// How many stretches the journal's runs asked to match since start.
    public var journalRequests: Int { journalRequestCount.withLock { $0 } }

    /// Asks for the trips of a user in `[from, to]` to be matched where they are not yet.
    func enqueue(userID: UserID, from: Date, to: Date) {
        guard roads.hasRoads, to > from else { return }
        work.withLock { items in
            if !items.contains(where: { $0.userID == userID && $0.from <= from && $0.to >= to }) {
                items.append((userID, from, to))
            }
        }
        wake.yield()
    }

    /// After the journal processed a device's fixes in `[from, to]`: the trips around them (a
    /// stay's edge moves the trips either side) are looked at.
    func journalProcessed(device: Device, from: Date, to: Date) {
        journalRequestCount.withLock { $0 += 1 }
        enqueue(userID: device.userID, from: from.addingTimeInterval(-JournalProcessor.marginSeconds - 86_400),
                to: to.addingTimeInterval(JournalProcessor.marginSeconds + 86_400))
    }

    public func run() async throws {
        if roads.hasRoads, let users = try? await store.users() {
            let now = Date()
            for user in users {
                for day in stride(from: 0, to: Self.startDays, by: 7) {
                    let to = now.addingTimeInterval(-Double(day) * 86_400 + 86_400)
                    enqueue(userID: user.id, from: to.addingTimeInterval(-Self.windowSeconds), to: to)
                }
            }
        }
        await cancelWhenGracefulShutdown {
            for await _ in self.wakes {
                await self.drain()
            }
        }
    }

    /// Matches everything asked for so far (tests call it to wait for the background's work).
    func drain() async {
        while let item = work.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            var from = item.from
            while from < item.to, !Task.isCancelled {
                let to = min(item.to, from.addingTimeInterval(Self.windowSeconds))
                await matchTrips(userID: item.userID, from: from, to: to)
                from = to
            }
        }
    }

    private func matchTrips(userID: UserID, from: Date, to: Date) async {
        let roads = self.roads
        do {
            let trips = try await JournalReader(store: store).trips(userID: userID, from: from, to: to)
            let (_, pending) = try await roads.attach(trips)
            for trip in pending {
                let record: TripMatchRecord = await withCheckedContinuation { continuation in
                    MatchRoutes.matching.async { continuation.resume(returning: roads.match(trip, userID: userID)) }
                }
                try await (store as? any TripMatchStore)?.storeTripMatch(record)
                matchedCount.withLock { $0 += 1 }
            }
        } catch {
            logger.warning("matching the journal's trips to the roads failed", metadata: ["user": "\(userID)", "error": "\(error)"])
        }
    }
}
