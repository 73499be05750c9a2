import Foundation
import TravelogCore
import TravelogStore

/// Turns stored locations into journal visits: re-runs visit detection over the stretch of a
/// device's history that new data touched, describes each visit (reverse geocoding), stores them
/// (`JournalStore.replaceVisits` keeps the person's decisions), and files each visit under a place
/// the person returns to.
///
/// Only the affected stretch is read again: from the start of the visit that was going on when the
/// new data begins (or a margin before it) to the end of the visit going on when it ends (or a
/// margin after it). Because detection depends only on the sequence of fixes, re-processing a
/// stretch gives the same visits as processing everything.
public struct JournalProcessor: Sendable {
    /// Fixes this long before and after the new data are read again, seconds, so that a stay that
    /// straddles the edge is judged on all its fixes.
    public static let marginSeconds: TimeInterval = 6 * 3600
    /// A visit joins a place whose center lies within the place's radius plus this, metres.
    public static let placeSlackMeters: Double = 50

    public let store: any LocationStore
    public let describer: (any PlaceDescriber)?
    public let tuning: VisitDetector.Tuning
    public let merger: VisitMerger

    public init(store: any LocationStore, describer: (any PlaceDescriber)?,
                tuning: VisitDetector.Tuning = VisitDetector.Tuning(), merger: VisitMerger = VisitMerger()) {
        self.store = store
        self.describer = describer
        self.tuning = tuning
        self.merger = merger
    }

    /// Re-processes a device's history where new fixes between `from` and `to` landed (all of it
    /// when both are `nil`).
    /// - Returns: the visits that arrived and the ones that ended, for notifications.
    public func process(device: Device, from: Date? = nil, to: Date? = nil) async throws -> VisitChanges {
        let (start, end) = try await stretch(device: device, from: from, to: to)
        let box = DetectionBox(VisitDetector(tuning: tuning))
        var query = LocationQuery(userID: device.userID, deviceIDs: [device.id])
        query.from = start
        query.to = end
        try await store.forEachBatch(query, batchSize: 20_000) { batch in
            for stored in batch { box.ingest(stored.location) }
        }
        var visits = box.departed
        if end == nil, let current = box.detector.currentVisit {
            visits.append(current)  // still going on: the data ends at this place
        } else {
            visits += box.detector.finish().map(\.visit)
        }
        let detected = merger.merged(visits).map { visit in
            JournalVisit(deviceID: device.id, source: .detected, arrival: visit.arrival, departure: visit.departure,
                         center: visit.center, radiusMeters: visit.radiusMeters, locationCount: visit.locationCount,
                         placemark: describer?.placemark(for: visit.center))
        }
        let journal = try await withoutDescribed(detected, device: device, from: start, to: end)
        // Every visit found arrives inside the stretch read, so the stretch is what is replaced.
        let changes = try await store.replaceVisits(deviceID: device.id, source: .detected, from: start ?? .distantPast,
                                                    to: end, with: journal)
        try await assignPlaces(userID: device.userID)
        return changes
    }

    /// Stores visits a file or an app described itself (Google's, Overland's), replacing those of
    /// the same source in their time span.
    @discardableResult
    public func storeDescribedVisits(_ visits: [JournalVisit], device: Device, source: VisitSource) async throws -> VisitChanges {
        guard let first = visits.map(\.arrival).min(), let last = visits.map(\.arrival).max() else { return VisitChanges() }
        let described = visits.map { visit in
            var visit = visit
            visit.deviceID = device.id
            visit.source = source
            if visit.placemark == nil { visit.placemark = describer?.placemark(for: visit.center) }
            return visit
        }
        let changes = try await store.replaceVisits(deviceID: device.id, source: source, from: first,
                                                    to: last.addingTimeInterval(0.001), with: described)
        try await assignPlaces(userID: device.userID)
        return changes
    }

    /// The stretch to read again: widened to whole stays at both edges.
    func stretch(device: Device, from: Date?, to: Date?) async throws -> (Date?, Date?) {
        guard let from else { return (nil, to.map { $0.addingTimeInterval(Self.marginSeconds) }) }
        var start = from.addingTimeInterval(-Self.marginSeconds)
        let overlapping = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: start, to: from,
                                                 includeHidden: true)
        if let earliest = overlapping.filter({ $0.visit.source == .detected }).map(\.visit.arrival).min() {
            start = min(start, earliest.addingTimeInterval(-1))
        }
        guard let to else { return (start, nil) }
        var end = to.addingTimeInterval(Self.marginSeconds)
        let after = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: to, to: end, includeHidden: true)
        for stored in after where stored.visit.source == .detected {
            guard let departure = stored.visit.departure else { return (start, nil) }
            end = max(end, departure.addingTimeInterval(Self.marginSeconds))
        }
        // When nothing was recorded after the stretch, it reaches the end of the data: a stay there
        // is still going on, not ended by the edge of the stretch.
        let later = try await store.locations(LocationQuery(userID: device.userID, deviceIDs: [device.id], from: end, limit: 1))
        return (start, later.isEmpty ? nil : end)
    }

    /// Files visits without a place under the nearest place within reach, or a new one.
    func assignPlaces(userID: UserID) async throws {
        var places = try await store.places(userID: userID)
        for stored in try await store.visits(userID: userID, deviceIDs: nil, from: nil, to: nil, includeHidden: false)
        where stored.placeID == nil {
            let center = stored.visit.center
            let nearest = places.map { ($0, $0.center.distanceMeters(to: center)) }
                .filter { $0.1 <= $0.0.radiusMeters + Self.placeSlackMeters }
                .min { $0.1 < $1.1 }?.0
            let place: StoredPlace
            if let nearest {
                place = nearest
            } else {
                place = try await store.addPlace(userID: userID, name: stored.visit.name, center: center,
                                                 radiusMeters: max(stored.visit.radiusMeters, tuning.radiusMeters))
                places.append(place)
            }
            _ = try await store.editVisit(id: stored.id, VisitEdit(placeID: .some(place.id)))
        }
    }
}

/// The detector and the visits it settled, touched only from the store's reading thread, one batch
/// at a time.
private final class DetectionBox: @unchecked Sendable {
    var detector: VisitDetector
    var departed: [Visit] = []

    init(_ detector: VisitDetector) { self.detector = detector }

    func ingest(_ location: Location) {
        for event in detector.ingest(location) {
            if case .departed(let visit) = event { departed.append(visit) }
        }
    }
}
