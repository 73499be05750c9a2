import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogStore

/// A notification the journal asks for: on arrival at a visit, and when a journal entry is
/// complete. `key` is unique per event, so the same event is never delivered twice.
public struct JournalNotification: Sendable, Equatable {
    public enum Kind: String, Sendable { case arrival, journalEntry }
    public var kind: Kind
    public var key: String
    public var userID: UserID
    public var title: String
    public var message: String
    public var occurredAt: Date
    public var entry: JournalEntry
}

extension JournalNotification {
    /// The message sent for it: the entry's fields as details.
    var notificationMessage: NotificationMessage {
        var details = ["place": entry.place, "arrival": entry.localArrival, "device": entry.device,
                       "latitude": String(entry.latitude), "longitude": String(entry.longitude), "visit": String(entry.id)]
        if let departure = entry.localDeparture { details["departure"] = departure }
        if let zone = entry.timeZone { details["timeZone"] = zone }
        return NotificationMessage(event: kind.rawValue, key: key, title: title, message: message, occurredAt: occurredAt,
                                   details: details)
    }
}

/// Keeps the journal current as locations arrive: every stored batch asks for its device's
/// affected stretch to be re-processed; requests for a device are coalesced and processed in the
/// background (the ingest answers without waiting). New arrivals and completed entries of the
/// recent past become notifications.
public final class JournalService: Service, Sendable {
    /// Only visits this recent notify (older ones come from imports of history), seconds.
    public static let notificationHorizonSeconds: TimeInterval = 6 * 3600

    /// How long the background run waits after being woken before it reads.
    static let coalescingDelay = Duration.milliseconds(20)

    public let processor: JournalProcessor
    let reader: JournalReader
    let notify: @Sendable (JournalNotification) async -> Void
    let logger: Logger
    /// The trips matched to the roads after each run (a service of its own).
    public let roads: TripRoadsService
    private let work = Mutex(JournalWorkQueue())
    /// Where each device's detection stood after its latest batches (touched only inside `chain`).
    private let resumeStates = Mutex<[DeviceID: JournalResumeState]>([:])
    private let chain = TaskChain()
    /// Whether a wake is set to come when held-back work reaches `JournalWorkQueue.holdLimit`.
    private let holdTimerArmed = Mutex(false)
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    public init(processor: JournalProcessor, logger: Logger = Logger(label: "travelog.journal"),
                notify: @escaping @Sendable (JournalNotification) async -> Void = { _ in }) {
        self.processor = processor
        reader = JournalReader(store: processor.store)
        self.notify = notify
        self.logger = logger
        roads = TripRoadsService(store: processor.store, logger: logger)
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for the stretch from `first` to `last` to be re-processed; `stored`: the fixes that
    /// landed there, when they are exactly what was added.
    func enqueue(device: Device, from first: Date, to last: Date, stored: [Location]? = nil) {
        work.withLock { $0.add(device: device, from: first, to: last, stored: stored, at: .now) }
        wake.yield()
    }

    public func writeBegan(userID: UserID) -> JournalWriteHold {
        work.withLock { $0.beginWrite(userID: userID) }
    }

    public func writeReached(_ hold: JournalWriteHold, earliest: Date) {
        work.withLock { $0.writeReached(hold, earliest: earliest) }
        wake.yield()
    }

    public func writeEnded(_ hold: JournalWriteHold) {
        work.withLock { $0.endWrite(hold) }
        wake.yield()
    }

    /// Processes everything asked for so far, now, whatever writes are under way (the run loop
    /// does the same in the background, taking what no write under way may come before).
    /// Runs one at a time: each drain waits for the one before it, so two never interleave their
    /// reads and writes of the same visits.
    public func drain() async {
        await chain.run { [self] in await processPending(all: true) }
    }

    private func processPending(all: Bool) async {
        let items = work.withLock { $0.take(all: all, now: .now) }
        for item in items {
            do {
                let (changes, after) = try await exclusively(item.device) { [processor] in
                    // Taken out here, so that the state's fixes have one owner and grow in place.
                    var state = self.resumeStates.withLock { $0.removeValue(forKey: item.device.id) } ?? JournalResumeState()
                    // On a store shared by several processes (PostgreSQL), what this one kept holds only
                    // while no other one has worked on the device since: a point does not know what
                    // another stored.
                    if try await !processor.claim(item.device) { state = JournalResumeState() }
                    let changes = try await processor.process(device: item.device, from: item.from, to: item.to, state: &state,
                                                              stored: item.stored)
                    return (changes, state)
                }
                resumeStates.withLock { $0[item.device.id] = after }
                // A trip appears or ends with a visit; a trip changed otherwise is matched when read.
                if !changes.arrived.isEmpty || !changes.completed.isEmpty || changes.earlierArrivals > 0 {
                    roads.journalProcessed(device: item.device, from: item.from, to: item.to)
                }
                await announce(changes, device: item.device)
            } catch {
                logger.error("journal processing failed", metadata: ["device": "\(item.device.name)", "error": "\(error)"])
            }
        }
    }

    /// Re-processes a device's whole history, in turn with the batches (its resume points start
    /// over).
    public func reprocess(device: Device) async throws -> VisitChanges {
        try await chain.value { [self] () async -> Result<VisitChanges, any Error> in
            resumeStates.withLock { _ = $0.removeValue(forKey: device.id) }
            do {
                return .success(try await exclusively(device) { [processor] in try await processor.process(device: device) })
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// Runs `body` as the only process working on the device when the store is shared by several
    /// (PostgreSQL), else at once (this service already runs one device's work at a time).
    private func exclusively<T: Sendable>(_ device: Device, _ body: @Sendable () async throws -> T) async throws -> T {
        guard let shared = processor.store as? any ExclusiveDeviceWork else { return try await body() }
        return try await shared.exclusively(deviceID: device.id, body)
    }

    public func run() async throws {
        // Entries stored before a gazetteer was found get their places' names, beside the live work.
        let describing = Task { [processor, logger] in
            do {
                let described = try await processor.describeStale()
                if described > 0 { logger.info("journal: \(described) entries stored without a place's name now have one") }
            } catch {
                logger.warning("journal: describing entries stored without a place's name failed: \(error)")
            }
        }
        defer { describing.cancel() }
        await cancelWhenGracefulShutdown {
            for await _ in self.wakes {
                // Uploads in flight together land within a few milliseconds: waiting that long lets
                // one run read them all, instead of a run per upload re-reading the ones it missed.
                try? await Task.sleep(for: Self.coalescingDelay)
                await self.chain.run { [self] in await processPending(all: false) }
                // Work held back for a write under way is taken when that write ends or reaches its
                // fixes (it wakes this loop), or after `JournalWorkQueue.holdLimit` at the latest.
                if self.work.withLock({ $0.hasHeldWork }), self.holdTimerArmed.withLock({ armed in
                    defer { armed = true }
                    return !armed
                }) {
                    Task { [self] in
                        try? await Task.sleep(for: JournalWorkQueue.holdLimit)
                        holdTimerArmed.withLock { $0 = false }
                        wake.yield()
                    }
                }
            }
        }
        await drain()
    }

    func announce(_ changes: VisitChanges, device: Device, now: Date = Date()) async {
        guard !changes.arrived.isEmpty || !changes.completed.isEmpty else { return }
        let entries = (try? await reader.entries(userID: device.userID, from: now.addingTimeInterval(-Self.notificationHorizonSeconds * 4),
                                                  to: nil)) ?? []
        func entry(_ stored: StoredVisit) -> JournalEntry? { entries.first { $0.id == stored.id.rawValue } }
        for stored in changes.arrived where stored.visit.departure == nil
            && now.timeIntervalSince(stored.visit.arrival) < Self.notificationHorizonSeconds {
            guard let entry = entry(stored) else { continue }
            await notify(JournalNotification(kind: .arrival, key: "visit-arrival:\(stored.id)", userID: device.userID,
                                             title: "Arrived: \(entry.place)", message: "\(device.name) arrived at \(entry.place)",
                                             occurredAt: stored.visit.arrival, entry: entry))
        }
        for stored in changes.completed {
            guard let departure = stored.visit.departure, now.timeIntervalSince(departure) < Self.notificationHorizonSeconds,
                  let entry = entry(stored) else { continue }
            await notify(JournalNotification(kind: .journalEntry, key: "journal-entry:\(stored.id)", userID: device.userID,
                                             title: "New journal entry 📌", message: entry.place,
                                             occurredAt: departure, entry: entry))
        }
    }
}
