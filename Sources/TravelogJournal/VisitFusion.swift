import Foundation
import TravelogCore
import TravelogStore

/// One person, several devices: the visits of different devices of a user that overlap in time at
/// the same place are one stay, shown as one journal entry.
///
/// Two visits of different devices are the same stay when their times overlap and their centres
/// lie within `max(radiusA, radiusB, minimumMatchMeters)` (a phone and a watch, or one file
/// imported under two device names, place the same stay a few metres apart; two stays of one
/// device are never joined here, only through another device's). The entry keeps the id of its best
/// member — the one a person named, else the best described (a source's name, then a placemark),
/// else the longest, else the oldest id — among the members not deleted when there are any; its
/// time spans the union of its members'. It is deleted when all its members are: deleting an entry
/// deletes all of them (`JournalEditor.deleteShown`), a title given to it lands on its kept member.
/// - Complexity: O(n·k) for n visits and k visits overlapping in time.
enum VisitFusion {
    /// The least distance within which two devices' overlapping visits are one stay, metres.
    static let minimumMatchMeters: Double = 150

    /// The stays: every visit grouped, each group in time order. A visit an earlier visit of its
    /// device was merged over (covered, ``StoredVisit/shown(_:)``) is in its coverer's group, and
    /// another device's visit of the same stay joins that group through it: a record of a merged
    /// stay that arrives later (a watch that syncs late) is part of the merged entry, not an entry
    /// beside it. A group holding a merge may hold several visits of a device; one without may not.
    /// - Parameter visits: all the visits, covered ones too, in time order.
    static func groups(_ visits: [StoredVisit]) -> [[StoredVisit]] {
        var groups: [[StoredVisit]] = []
        var groupOf: [VisitID: Int] = [:]
        /// The groups that may still overlap a later visit: index and latest end.
        var open: [(index: Int, end: Date)] = []
        /// Per device, the visit merged over the later ones and until when (as `StoredVisit.shown`).
        var coverer: [DeviceID: (id: VisitID, until: Date)] = [:]
        func add(_ stored: StoredVisit, to index: Int) {
            groups[index].append(stored)
            groupOf[stored.id] = index
        }
        for stored in visits {
            let device = stored.visit.deviceID
            if let cover = coverer[device], stored.visit.arrival <= cover.until, let index = groupOf[cover.id] {
                add(stored, to: index)
                continue
            }
            if let until = stored.mergedUntil { coverer[device] = (stored.id, until) }
            open.removeAll { $0.end <= stored.visit.arrival }
            let match = open.first { candidate in
                let group = groups[candidate.index]
                // A person's merge joins whatever it covers, even a second visit of a device
                // (one recorded the café and the office, the other only the café).
                if stored.mergedUntil != nil, group.contains(where: { mergedTogether($0, stored) }) { return true }
                let merged = group.contains { $0.mergedUntil != nil }
                return (merged || !group.contains { $0.visit.deviceID == device }) && group.contains { sameStay($0, stored) }
            }
            let end = stored.shownDeparture ?? .distantFuture
            if let match, let position = open.firstIndex(where: { $0.index == match.index }) {
                add(stored, to: match.index)
                open[position].end = max(open[position].end, end)
            } else {
                groups.append([])
                add(stored, to: groups.count - 1)
                open.append((groups.count - 1, end))
            }
        }
        return groups
    }

    /// The entries as a person sees them: one per stay, with the kept member's id and the union
    /// of the members' times; deleted (`hidden`) when the person deleted the stay (any member is).
    /// - Parameter visits: all the visits, covered ones too, in time order.
    static func fused(_ visits: [StoredVisit]) -> [StoredVisit] {
        let shown = Set(StoredVisit.shown(visits).map(\.id))
        return groups(visits).map { entry($0, shown: shown) }
            .sorted { ($0.visit.arrival, $0.id.rawValue) < ($1.visit.arrival, $1.id.rawValue) }
    }

    /// The entry a group shows: the id of its best member not covered by a merge, the union of
    /// all its members' times. It is deleted when any member not covered is: deleting an entry
    /// hides every member (``JournalEditor/deleteShown(visit:userID:)``), so a hidden member means
    /// the person deleted the stay, and another device's record of it arriving later does not
    /// bring it back; restoring unhides them all.
    /// - Parameter shown: the ids of the visits no merge covers.
    static func entry(_ group: [StoredVisit], shown: Set<VisitID>) -> StoredVisit {
        let visible = group.filter { shown.contains($0.id) }
        guard group.count > 1, !visible.isEmpty else { return group[0] }
        let alive = visible.filter { !$0.hidden }
        var kept = kept(alive.isEmpty ? visible : alive)
        kept.hidden = visible.contains { $0.hidden }
        kept.visit.arrival = group.map(\.visit.arrival).min() ?? kept.visit.arrival
        let ends = group.map(\.shownDeparture)
        kept.visit.departure = ends.contains(nil) ? nil : ends.compactMap { $0 }.max()
        kept.mergedUntil = nil
        kept.visit.locationCount = group.map(\.visit.locationCount).max() ?? kept.visit.locationCount
        return kept
    }

    /// The member whose id the entry keeps.
    static func kept(_ members: [StoredVisit]) -> StoredVisit {
        func rank(_ stored: StoredVisit) -> (Int, Int, Int, Double, Int64) {
            let length = (stored.shownDeparture ?? .distantFuture).timeIntervalSince(stored.visit.arrival)
            return (stored.title == nil ? 1 : 0, stored.visit.name == nil ? 1 : 0, stored.visit.placemark == nil ? 1 : 0,
                    -length, stored.id.rawValue)
        }
        return members.min { rank($0) < rank($1) } ?? members[0]
    }

    /// Whether one merge of a person's covers both visits: visits of different devices merged until
    /// the same instant.
    static func mergedTogether(_ a: StoredVisit, _ b: StoredVisit) -> Bool {
        guard a.visit.deviceID != b.visit.deviceID, let until = a.mergedUntil else { return false }
        return until == b.mergedUntil
    }

    /// Whether two visits of different devices are the same stay: they overlap at one place, or a
    /// person merged entries of both devices into one (each device's merged visit then ends at the
    /// same instant, ``JournalEditor/merge(visits:userID:)``).
    static func sameStay(_ a: StoredVisit, _ b: StoredVisit) -> Bool {
        guard a.visit.deviceID != b.visit.deviceID else { return false }
        if mergedTogether(a, b) { return true }
        let endA = a.shownDeparture ?? .distantFuture, endB = b.shownDeparture ?? .distantFuture
        guard a.visit.arrival < endB, b.visit.arrival < endA else { return false }
        let limit = max(a.visit.radiusMeters, b.visit.radiusMeters, minimumMatchMeters)
        return a.visit.center.distanceMeters(to: b.visit.center) <= limit
    }
}

extension JournalEditor {
    /// The stay a visit is part of (``VisitFusion``), deleted members included and those a merge
    /// covers left out (they follow the visit merged over them).
    func stay(of stored: StoredVisit, userID: UserID) async throws -> [StoredVisit] {
        let from = stored.visit.arrival.addingTimeInterval(-2 * 86_400)
        let to = (stored.shownDeparture ?? Date.distantFuture).addingTimeInterval(2 * 86_400)
        let nearby = try await store.visits(userID: userID, deviceIDs: nil, from: from, to: to, includeHidden: true)
        let shown = Set(StoredVisit.shown(nearby).map(\.id))
        let group = VisitFusion.groups(nearby).first { $0.contains { $0.id == stored.id } } ?? [stored]
        return group.filter { shown.contains($0.id) || $0.id == stored.id }
    }

    /// Restores the entry a person sees: every deleted visit of its stay, as ``deleteShown(visit:userID:)``
    /// deleted them all. - Returns: the entry's own visit.
    @discardableResult
    public func restoreShown(visit id: VisitID, userID: UserID) async throws -> StoredVisit {
        let stored = try await owned(id, userID: userID)
        for member in try await stay(of: stored, userID: userID) where member.id != id && member.hidden {
            _ = try await store.editVisit(id: member.id, VisitEdit(hidden: false))
        }
        return try await restore(visit: id, userID: userID)
    }

    /// Undoes the merge of the entry a person sees: also the other devices' part of it (their
    /// visits merged until the same instant). - Returns: the entry's own visit.
    @discardableResult
    public func unmergeShown(visit id: VisitID, userID: UserID) async throws -> StoredVisit {
        let stored = try await owned(id, userID: userID)
        let result = try await unmerge(visit: id, userID: userID)
        guard let until = stored.mergedUntil else { return result }
        for member in try await stay(of: stored, userID: userID) where member.id != id && member.mergedUntil == until {
            _ = try await store.editVisit(id: member.id, VisitEdit(mergedUntil: .some(nil)))
        }
        return result
    }

    /// Deletes the entry a person sees: every visit of the stay it shows (`VisitFusion`), so that
    /// another device's record of it does not take its place. - Returns: the entry's own visit.
    @discardableResult
    public func deleteShown(visit id: VisitID, userID: UserID) async throws -> StoredVisit {
        let stored = try await owned(id, userID: userID)
        for member in try await stay(of: stored, userID: userID) where member.id != id && !member.hidden {
            _ = try await store.editVisit(id: member.id, VisitEdit(hidden: true))
        }
        return try await delete(visit: id, userID: userID)
    }
}
