import Foundation
import TravelogCore

extension InMemoryLocationStore {
    public func replaceVisits(deviceID: DeviceID, source: VisitSource, from: Date, to: Date?,
                              with visits: [JournalVisit]) async throws(StoreError) -> VisitChanges {
        try withState { (state) throws(StoreError) -> VisitChanges in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            let rows = state.visits.values
                .filter { stored in
                    stored.visit.deviceID == deviceID && stored.visit.source == source && stored.visit.arrival >= from
                        && (to.map { stored.visit.arrival < $0 } ?? true)
                }
                .sorted { ($0.visit.arrival, $0.id) < ($1.visit.arrival, $1.id) }
            let plan = VisitReplacementPlan(existing: rows, replacements: visits)
            for id in plan.deletes { state.visits[id] = nil }
            for (row, visit) in plan.updates { state.visits[row.id]?.visit = visit }
            var inserted: [StoredVisit] = []
            for visit in plan.inserts {
                let stored = StoredVisit(id: VisitID(rawValue: state.makeID()), visit: visit)
                state.visits[stored.id] = stored
                inserted.append(stored)
            }
            return plan.changes(inserted: inserted)
        }
    }

    public func visits(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                       includeHidden: Bool) async throws(StoreError) -> [StoredVisit] {
        withState { state in
            state.visits.values.filter { stored in
                guard let device = state.devices[stored.visit.deviceID], device.userID == userID else { return false }
                if let deviceIDs, !deviceIDs.contains(device.id) { return false }
                if !includeHidden, stored.hidden { return false }
                if let to, stored.visit.arrival >= to { return false }
                if let from, let departure = stored.shownDeparture, departure < from { return false }
                return true
            }.sorted { ($0.visit.arrival, $0.id) < ($1.visit.arrival, $1.id) }
        }
    }

    public func visit(id: VisitID) async throws(StoreError) -> StoredVisit? {
        withState { $0.visits[id] }
    }

    public func editVisit(id: VisitID, _ edit: VisitEdit) async throws(StoreError) -> StoredVisit {
        try withState { (state) throws(StoreError) -> StoredVisit in
            guard var stored = state.visits[id] else { throw .unknownVisit(id) }
            if let title = edit.title { stored.title = title }
            if let hidden = edit.hidden { stored.hidden = hidden }
            if let mergedUntil = edit.mergedUntil { stored.mergedUntil = mergedUntil }
            if let placeID = edit.placeID {
                if let placeID, state.places[placeID] == nil { throw .unknownPlace(placeID) }
                stored.placeID = placeID
            }
            if let placemark = edit.placemark { stored.visit.placemark = placemark }
            state.visits[id] = stored
            return stored
        }
    }

    public func assignPlaces(_ assignments: [VisitID: PlaceID]) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            for (visitID, placeID) in assignments {
                guard state.visits[visitID] != nil else { throw .unknownVisit(visitID) }
                guard state.places[placeID] != nil else { throw .unknownPlace(placeID) }
            }
            for (visitID, placeID) in assignments { state.visits[visitID]?.placeID = placeID }
        }
    }

    public func places(userID: UserID) async throws(StoreError) -> [StoredPlace] {
        withState { $0.places.values.filter { $0.userID == userID }.sorted { $0.id < $1.id } }
    }

    public func addPlace(userID: UserID, name: String?, center: Coordinate, radiusMeters: Double) async throws(StoreError) -> StoredPlace {
        try withState { (state) throws(StoreError) -> StoredPlace in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            let place = StoredPlace(id: PlaceID(rawValue: state.makeID()), userID: userID, name: name, center: center,
                                    radiusMeters: radiusMeters)
            state.places[place.id] = place
            return place
        }
    }

    public func renamePlace(id: PlaceID, name: String?) async throws(StoreError) -> StoredPlace {
        try withState { (state) throws(StoreError) -> StoredPlace in
            guard var place = state.places[id] else { throw .unknownPlace(id) }
            place.name = name
            state.places[id] = place
            return place
        }
    }
}
