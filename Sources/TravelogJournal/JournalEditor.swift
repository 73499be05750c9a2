import Foundation
import TravelogStore

/// The person's changes to the journal: rename, delete and merge entries, name places. Each is a
/// decision the store keeps through every re-processing. Every call checks the entry belongs to
/// the user.
public struct JournalEditor: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notFound(String)
        case invalid(String)

        public var description: String {
            switch self {
            case .notFound(let message), .invalid(let message): message
            }
        }
    }

    public let store: any AccountStore & JournalStore

    public init(store: any AccountStore & JournalStore) {
        self.store = store
    }

    /// Gives an entry a title of the person's own (`nil` or empty removes it).
    public func rename(visit id: VisitID, userID: UserID, title: String?) async throws -> StoredVisit {
        _ = try await owned(id, userID: userID)
        let title = try Self.name(title, of: "a title")
        return try await store.editVisit(id: id, VisitEdit(title: .some(title)))
    }

    /// Deletes an entry: it is hidden for good, even when later data finds the visit again.
    @discardableResult
    public func delete(visit id: VisitID, userID: UserID) async throws -> StoredVisit {
        _ = try await owned(id, userID: userID)
        return try await store.editVisit(id: id, VisitEdit(hidden: true))
    }

    /// Restores a deleted entry, with everything merged into it: it is shown again, and
    /// re-processing keeps it like any other entry. Restoring an entry that is shown changes nothing.
    @discardableResult
    public func restore(visit id: VisitID, userID: UserID) async throws -> StoredVisit {
        let stored = try await owned(id, userID: userID)
        guard stored.hidden else { return stored }
        return try await store.editVisit(id: id, VisitEdit(hidden: false))
    }

    /// Undoes a merge: the entry lasts as long as its own visit again, and the entries it joined are
    /// shown again as they were (a deleted one stays deleted, one that was itself merged stays so).
    /// Undoing the merge of an entry that joins nothing changes nothing.
    /// - Throws: `Failure.invalid` for a deleted entry: what it joined was deleted with it, and
    ///   comes back only with it (``restore(visit:userID:)`` first).
    @discardableResult
    public func unmerge(visit id: VisitID, userID: UserID) async throws -> StoredVisit {
        let stored = try await owned(id, userID: userID)
        guard stored.mergedUntil != nil else { return stored }
        guard !stored.hidden else {
            throw Failure.invalid("entry \(id) is deleted, with the entries merged into it: restore it first")
        }
        return try await store.editVisit(id: id, VisitEdit(mergedUntil: .some(nil)))
    }

    /// Merges entries into the earliest: it then lasts until the last one ends, and the others are
    /// shown as part of it. The entries may be of several devices (a person sees one journal of
    /// every device, ``VisitFusion``): each device's earliest entry among them is merged until the
    /// same instant, everything of that device until then is covered by it, and the devices'
    /// merged visits are one entry because they end at that instant (``VisitFusion/sameStay(_:_:)``).
    /// Takes at most ``maximumMergedEntries`` ids, each once (``mergeList(_:)``).
    /// - Returns: the earliest entry's visit, whose id the merged entry keeps.
    public func merge(visits ids: [VisitID], userID: UserID) async throws -> StoredVisit {
        let ids = try Self.mergeList(ids)
        guard ids.count >= 2 else { throw Failure.invalid("merging needs at least two different entries") }
        var visits: [StoredVisit] = []
        for id in ids { visits.append(try await owned(id, userID: userID)) }
        visits.sort { $0.visit.arrival < $1.visit.arrival }
        let until = visits.dropFirst().compactMap(\.shownDeparture).max()
        guard let until else { throw Failure.invalid("the last entry to merge is still going on") }
        // The earliest of each device carries the merge; the first of all is the entry shown.
        var carriers: [DeviceID: StoredVisit] = [:]
        for visit in visits where carriers[visit.visit.deviceID] == nil { carriers[visit.visit.deviceID] = visit }
        for carrier in carriers.values where carrier.id != visits[0].id {
            _ = try await store.editVisit(id: carrier.id, VisitEdit(mergedUntil: .some(until)))
        }
        return try await store.editVisit(id: visits[0].id, VisitEdit(mergedUntil: .some(until)))
    }

    /// Names a place; its visits then carry the name.
    public func rename(place id: PlaceID, userID: UserID, name: String?) async throws -> StoredPlace {
        guard try await store.places(userID: userID).contains(where: { $0.id == id }) else {
            throw Failure.notFound("no place \(id)")
        }
        let name = try Self.name(name, of: "a place's name")
        return try await store.renamePlace(id: id, name: name)
    }

    /// The longest title or place name a person may give (characters).
    public static let maximumNameLength = 200

    /// A name as a person gave it, trimmed; nil when empty. Refused when it holds a character no
    /// name may hold (`DisplayName`): a terminal or a log would act on it.
    static func name(_ text: String?, of what: String) throws -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= Self.maximumNameLength else {
            throw Failure.invalid("\(what) may be at most \(Self.maximumNameLength) characters long (this one has \(trimmed.count))")
        }
        if let refusal = DisplayName.refusal(of: trimmed) {
            throw Failure.invalid("\(what) may not hold control, line-separator or bidirectional-override characters: \(refusal)")
        }
        return trimmed
    }

    /// The visit, when it is the user's.
    func owned(_ id: VisitID, userID: UserID) async throws -> StoredVisit {
        guard let stored = try await store.visit(id: id),
              let device = try await store.device(id: stored.visit.deviceID), device.userID == userID else {
            throw Failure.notFound("no journal entry \(id)")
        }
        return stored
    }
}
