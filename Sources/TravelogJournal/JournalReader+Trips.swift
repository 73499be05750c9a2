import Foundation
import TravelogCore
import TravelogStore

extension JournalReader {
    /// The trips of one person in `[from, to)`: between consecutive shown visits of each device, one
    /// trip where devices carried together made the same one (the same two entries, overlapping in
    /// time; the trip with more fixes is kept), and each trip's distance read from the distance
    /// ledger of the person's fused track (`DistanceLedger`, the computation of a day's distance and
    /// the path's length), counting only the movement of the groups its device was in: from the
    /// departure up to the next departure (the stop's confirmation books the last leg), so a day's
    /// trips never add up to more than the day. A trip whose measured distance is under a metre
    /// (jitter the day's figure does not count) is not listed.
    /// - Parameter utcOffset: the local offset of a fix's day, seconds, as the statistics read it.
    func personTrips(userID: UserID, from: Date?, to: Date?, builder: TripBuilder,
                     utcOffset: @escaping @Sendable (Location) -> Int) async throws -> [TripEntry] {
        let all = try await store.visits(userID: userID, deviceIDs: nil, from: from, to: to, includeHidden: true)
        let own = StoredVisit.shown(all)
        var entryOf: [VisitID: StoredVisit] = [:]
        for group in VisitFusion.groups(own) {
            let entry = VisitFusion.entry(group)
            for member in group { entryOf[member.id] = entry }
        }
        let visits = own.filter { !(entryOf[$0.id] ?? $0).hidden }
        guard !visits.isEmpty else { return [] }
        let ledger = try await store.fusedLedger(LocationQuery(userID: userID, from: from, to: to), utcOffset: utcOffset)
        var found: [(entry: TripEntry, fixes: Int)] = []
        for device in try await store.devices(userID: userID) {
            let mine = visits.filter { $0.visit.deviceID == device.id }
            for (origin, destination) in zip(mine, mine.dropFirst()) {
                guard let start = origin.shownDeparture, destination.visit.arrival > start,
                      let from = try? Visit(arrival: origin.visit.arrival, departure: start, center: origin.visit.center,
                                            radiusMeters: origin.visit.radiusMeters, locationCount: origin.visit.locationCount),
                      let to = try? Visit(arrival: destination.visit.arrival, departure: destination.visit.departure,
                                          center: destination.visit.center, radiusMeters: destination.visit.radiusMeters,
                                          locationCount: destination.visit.locationCount)
                else { continue }
                let fixes = try await store.locations(LocationQuery(userID: userID, deviceIDs: [device.id], from: start,
                                                                    to: destination.visit.arrival))
                guard let trip = builder.trip(from: from, to: to, locations: fixes.map(\.location)) else { continue }
                let through = destination.shownDeparture ?? .distantFuture
                let meters = ledger.meters(after: start, through: through, device: device.id.rawValue)
                guard meters >= 1 else { continue }
                var entry = TripEntry(trip, from: origin, to: destination, device: device.name, fixes: fixes.map(\.location))
                entry.distanceMeters = (meters * 10).rounded(.down) / 10
                entry.fromVisit = (entryOf[origin.id] ?? origin).id.rawValue
                entry.toVisit = (entryOf[destination.id] ?? destination).id.rawValue
                found.append((entry, trip.locationCount))
            }
        }
        // Devices carried together: one trip between the same two entries at the same time.
        found.sort { ($0.fixes, $1.entry.device) > ($1.fixes, $0.entry.device) }
        var kept: [TripEntry] = []
        for candidate in found.map(\.entry) {
            let same = kept.contains { other in
                other.fromVisit == candidate.fromVisit && other.toVisit == candidate.toVisit
                    && other.start < candidate.end && candidate.start < other.end
            }
            if !same { kept.append(candidate) }
        }
        return kept.sorted { ($0.start, $0.device) < ($1.start, $1.device) }
    }
}
