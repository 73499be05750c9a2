import Foundation
import TravelogCore
import TravelogStore

extension ShareLinks {
    /// The fixes of the trip that leaves from a visit (``tripRange(leaving:userID:)``), of the
    /// visit's device, oldest first: what `travelog match --trip` and `GET /api/v1/match?trip=` match.
    /// - Parameter limit: at most this many (the first ones).
    /// - Throws: ``ShareError/unknownTrip(_:)`` for a visit that is not the user's or has no next one.
    public func tripFixes(leaving visitID: VisitID, userID: UserID, limit: Int? = nil) async throws(ShareError) -> [Location] {
        let range = try await tripRange(leaving: visitID, userID: userID)
        do {
            guard let origin = try await store.visit(id: visitID) else { throw ShareError.unknownTrip(visitID) }
            let query = LocationQuery(userID: userID, deviceIDs: [origin.visit.deviceID], from: range.from, to: range.to, limit: limit)
            return try await store.locations(query).map(\.location)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .unknownTrip(visitID)
        }
    }

    /// The trip that leaves from a visit as the journal draws it and measures it: from the center of
    /// the place left, through the device's fixes (``tripFixes(leaving:userID:limit:)``), to the center
    /// of the place reached. What `travelog match --trip` and `GET /api/v1/match?trip=` match: the
    /// fixes alone start where the visit's radius ends (100 m out), so their length fell short of the
    /// journal's distance for the same trip (390 m against 599 m for a walk of 600 m).
    public func tripTrace(leaving visitID: VisitID, userID: UserID, limit: Int? = nil) async throws(ShareError) -> [Coordinate] {
        let (origin, next) = try await tripVisits(leaving: visitID, userID: userID)
        let fixes = try await tripFixes(leaving: visitID, userID: userID, limit: limit)
        return [origin.visit.center] + fixes.map(\.coordinate) + [next.visit.center]
    }
}
