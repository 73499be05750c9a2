import Foundation
import TravelogCore

/// Which locations to read: always one user's, optionally narrowed by device, time and area.
public struct LocationQuery: Hashable, Sendable {
    public var userID: UserID
    /// Only these devices (all of the user's when `nil`).
    public var deviceIDs: Set<DeviceID>?
    /// Inclusive lower bound of the timestamp.
    public var from: Date?
    /// Exclusive upper bound of the timestamp.
    public var to: Date?
    /// Only fixes inside this latitude/longitude box.
    public var area: CoordinateBox?
    /// At most this many, oldest first (or newest first with `newestFirst`).
    public var limit: Int?
    public var newestFirst: Bool

    public init(userID: UserID, deviceIDs: Set<DeviceID>? = nil, from: Date? = nil, to: Date? = nil,
                area: CoordinateBox? = nil, limit: Int? = nil, newestFirst: Bool = false) {
        self.userID = userID
        self.deviceIDs = deviceIDs
        self.from = from
        self.to = to
        self.area = area
        self.limit = limit
        self.newestFirst = newestFirst
    }
}
