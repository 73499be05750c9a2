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
        let shownIDs = Set(own.map(\.id))
        var entryOf: [VisitID: StoredVisit] = [:]
        for group in VisitFusion.groups(all) {
            let entry = VisitFusion.entry(group, shown: shownIDs)
            for member in group { entryOf[member.id] = entry }
        }
        let visits = own.filter { !(entryOf[$0.id] ?? $0).hidden }
        guard !visits.isEmpty else { return [] }
        let ledger = try await store.fusedLedger(LocationQuery(userID: userID, from: from, to: to), utcOffset: utcOffset)
        var found: [Candidate] = []
        for device in try await store.devices(userID: userID) {
            let mine = visits.filter { $0.visit.deviceID == device.id }
            for (origin, destination) in zip(mine, mine.dropFirst()) {
                // Two visits of one entry (a merge another device's record joined) have no trip between them.
                guard (entryOf[origin.id] ?? origin).id != (entryOf[destination.id] ?? destination).id,
                      let start = origin.shownDeparture, destination.visit.arrival > start,
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
                // The same zone as the entries at either end show (JournalReader.entries).
                var entry = TripEntry(trip, from: origin, to: destination, device: device.name, fixes: fixes.map(\.location),
                                      placeTimeZone: { timeZones?.timeZone(at: $0.visit.center) })
                entry.distanceMeters = (meters * 10).rounded(.down) / 10
                entry.fromVisit = (entryOf[origin.id] ?? origin).id.rawValue
                entry.toVisit = (entryOf[destination.id] ?? destination).id.rawValue
                entry.deviceID = device.id.rawValue
                found.append(Candidate(entry: entry, device: device.id.rawValue, start: start, through: through,
                                       fixes: trip.locationCount))
            }
        }
        // Devices carried together made one trip: the one with the most fixes is kept, and a trip of
        // another device overlapping it for half of the shorter one is dropped when it joins the
        // same two entries or the devices were together over the overlap (a watch that saw a stop
        // the phone did not: its two trips are inside the phone's one).
        found.sort { ($0.fixes, $1.entry.device, $1.start) > ($1.fixes, $0.entry.device, $0.start) }
        var kept: [Candidate] = []
        for candidate in found {
            let same = kept.contains { other in
                guard other.device != candidate.device else { return false }
                let overlapStart = max(other.start, candidate.start), overlapEnd = min(other.through, candidate.through)
                guard overlapEnd > overlapStart else { return false }
                if other.entry.fromVisit == candidate.entry.fromVisit && other.entry.toVisit == candidate.entry.toVisit { return true }
                let shorter = min(other.through.timeIntervalSince(other.start), candidate.through.timeIntervalSince(candidate.start))
                return overlapEnd.timeIntervalSince(overlapStart) >= 0.5 * shorter
                    && ledger.together(other.device, candidate.device, after: overlapStart, through: overlapEnd)
            }
            if !same { kept.append(candidate) }
        }
        return kept.map(\.entry).sorted { ($0.start, $0.device) < ($1.start, $1.device) }
    }

    /// A trip found for one device, before the trips of devices carried together are made one.
    private struct Candidate {
        var entry: TripEntry
        var device: Int64
        var start: Date
        /// The end of the interval its distance was read over (the next departure).
        var through: Date
        var fixes: Int
    }
}
