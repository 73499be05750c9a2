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
}
