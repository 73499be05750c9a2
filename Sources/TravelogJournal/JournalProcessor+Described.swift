import Foundation
import TravelogCore
import TravelogStore

extension JournalProcessor {
    /// Describes the visits stored without a description of their place, or described with other
    /// data than the describer's (``PlaceDescriber/fingerprint``: before a gazetteer was installed,
    /// by a `travelog import` that found none, before an OSM extract was added): journal entries
    /// titled with bare coordinates get the place's name, entries at a café the café's, and the
    /// countries and cities of a range count them. Only the description changes: a person's title,
    /// deletion, merge and place, and a source's own name, are left as they are (an entry shows the
    /// title and names first). With `force`, every visit in the range is described anew. Does
    /// nothing without a describer.
    /// - Returns: how many visits' descriptions changed.
    /// - Complexity: one read of the user's visits in the range, then one write per visit whose
    ///   description changed.
    @discardableResult
    public func describeStale(userID: UserID, from: Date? = nil, to: Date? = nil, force: Bool = false) async throws -> Int {
        guard let describer else { return 0 }
        let visits = try await store.visits(userID: userID, deviceIDs: nil, from: from, to: to, includeHidden: true)
        var described = 0
        let fingerprint = describer.fingerprint
        for stored in visits {
            let current = stored.visit.placemark
            let stale = current == nil || (fingerprint != nil && current?.describedBy != fingerprint)
            guard force || stale,
                  let placemark = describer.placemark(forVisitAt: stored.visit.center, radiusMeters: stored.visit.radiusMeters),
                  placemark != current else { continue }
            do {
                _ = try await store.editVisit(id: stored.id, VisitEdit(placemark: placemark))
                described += 1
            } catch {
                // Replaced meanwhile by processing, which describes what it stores.
                guard case .unknownVisit = error else { throw error }
            }
        }
        return described
    }

    /// `describeStale(userID:)` for every user. - Returns: how many visits' descriptions changed.
    @discardableResult
    public func describeStale() async throws -> Int {
        var described = 0
        for user in try await store.users() { described += try await describeStale(userID: user.id) }
        return described
    }

    /// Removes the stored detected visits that `described` (visits a file or an app described
    /// itself, just stored) account for, by the rule of `withoutDescribed`: each stay is listed
    /// once, whichever was stored first. The server stores a batch's fixes, and its journal may
    /// detect their stays, before the batch's own visits are stored (`HistoryWriter`); without this
    /// the same stay stayed listed twice, Google's visit beside the detected one (issue 26).
    /// The person's decisions about a withdrawn entry pass to the visit that accounts for it: deleted
    /// stays deleted, a title stays (unless the visit has one), a merge stays. A detected visit the
    /// person deleted is withdrawn as well, its deletion carried over.
    /// - Complexity: one read of the device's visits over the described span, one replacement and
    ///   a write per decision carried over when something is accounted for.
    func withdrawDetected(accountedFor described: [JournalVisit], device: Device) async throws {
        guard let first = described.map(\.arrival).min() else { return }
        let last = described.map { $0.departure ?? .distantFuture }.max() ?? first
        let detected = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: first,
                                              to: last == .distantFuture ? nil : last.addingTimeInterval(0.001), includeHidden: true)
            .filter { $0.visit.source == .detected }
        let accounted = detected.filter { stored in described.contains { Self.accounts(for: stored.visit, stay: $0) } }
        guard let from = accounted.map(\.visit.arrival).min(), let to = accounted.map(\.visit.arrival).max() else { return }
        // The detected visits arriving in that span, less the accounted ones, replace what is stored there.
        let span = detected.filter { $0.visit.arrival >= from && $0.visit.arrival <= to }
        let kept = span.filter { stored in !accounted.contains { $0.id == stored.id } }.map(\.visit)
        try await carryDecisions(of: accounted, device: device)
        // A deleted entry is withdrawn too, once its deletion is the file's visit's: kept, it was listed
        // beside it among the deleted, and restoring it showed the stay twice. Should this stop between
        // the two writes, the next processing of the stretch leaves it out (`withoutDescribed`).
        for row in accounted where row.hidden { _ = try await store.editVisit(id: row.id, VisitEdit(hidden: false)) }
        _ = try await store.replaceVisits(deviceID: device.id, source: .detected, from: from, to: to.addingTimeInterval(0.001), with: kept)
    }

    /// Gives each described visit the decisions about the detected entries it accounts for.
    func carryDecisions(of withdrawn: [StoredVisit], device: Device) async throws {
        let decided = withdrawn.filter { $0.hidden || $0.title != nil || $0.mergedUntil != nil }
        guard let from = decided.map(\.visit.arrival).min() else { return }
        let to = decided.map { $0.shownDeparture ?? .distantFuture }.max() ?? from
        let described = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: from,
                                               to: to == .distantFuture ? nil : to.addingTimeInterval(0.001), includeHidden: true)
            .filter { $0.visit.source != .detected }
        for stored in described {
            let own = decided.filter { Self.accounts(for: $0.visit, stay: stored.visit) }
            guard !own.isEmpty else { continue }
            var edit = VisitEdit()
            if own.contains(where: \.hidden), !stored.hidden { edit.hidden = true }
            if stored.title == nil, let title = own.compactMap(\.title).first { edit.title = .some(title) }
            if let until = own.compactMap(\.mergedUntil).max(), until > (stored.mergedUntil ?? .distantPast) {
                edit.mergedUntil = .some(until)
            }
            guard edit != VisitEdit() else { continue }
            _ = try await store.editVisit(id: stored.id, edit)
        }
    }

    /// Whether a visit the data described accounts for a detected one: same device, overlapping in
    /// time, centers within both radii plus the store's matching slack.
    static func accounts(for visit: JournalVisit, stay: JournalVisit) -> Bool {
        visit.overlaps(arrival: stay.arrival, departure: stay.departure)
            && visit.center.distanceMeters(to: stay.center)
                <= visit.radiusMeters + stay.radiusMeters + VisitReplacementPlan.matchingSlackMeters
    }

    /// Leaves out the detected visits that a visit the data described itself (Google's, Overland's)
    /// already accounts for: same device, overlapping in time, centers within both radii plus the
    /// store's matching slack. The described visit is the better account of that stay (it carries
    /// the source's name for it), and one the person deleted still accounts for it, so the stay
    /// does not come back as a detected entry.
    /// - Complexity: O(n·m) for n detected and m described visits in the stretch (a few a day).
    func withoutDescribed(_ detected: [JournalVisit], device: Device, from: Date?, to: Date?) async throws -> [JournalVisit] {
        let described = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: from, to: to,
                                               includeHidden: true)
            .map(\.visit).filter { $0.source != .detected }
        guard !described.isEmpty else { return detected }
        return detected.filter { visit in !described.contains { Self.accounts(for: visit, stay: $0) } }
    }
}
