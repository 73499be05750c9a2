import Foundation
import TravelogCore

/// A label of a stored fix, with the fix it is on.
public struct StoredLabel: Hashable, Sendable {
    public var deviceID: DeviceID
    /// The labelled fix's time and place, at the stores' precision (`StoragePrecision`).
    public var timestamp: Date
    public var coordinate: Coordinate
    public var label: LocationLabel

    public init(deviceID: DeviceID, timestamp: Date, coordinate: Coordinate, label: LocationLabel) {
        self.deviceID = deviceID
        self.timestamp = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(timestamp))
        self.coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: StoragePrecision.e7(coordinate.latitude)),
                                     longitude: StoragePrecision.degrees(e7: StoragePrecision.e7(coordinate.longitude))) ?? coordinate
        self.label = label
    }

    /// A label as a store's row keeps it; `nil` for a row no Travelog wrote (a kind it does not
    /// know, an empty text, a coordinate off the globe).
    public init?(deviceID: DeviceID, timestampMilliseconds: Int64, latitudeE7: Int64, longitudeE7: Int64, kind: String, text: String) {
        guard let kind = LocationLabel.Kind(rawValue: kind), let label = LocationLabel(kind: kind, text: text),
              let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: latitudeE7),
                                          longitude: StoragePrecision.degrees(e7: longitudeE7)) else { return nil }
        self.init(deviceID: deviceID, timestamp: StoragePrecision.date(milliseconds: timestampMilliseconds),
                  coordinate: coordinate, label: label)
    }

    /// The label of `location`, a fix of `deviceID`.
    public init(deviceID: DeviceID, location: Location, label: LocationLabel) {
        self.init(deviceID: deviceID, timestamp: location.timestamp, coordinate: location.coordinate, label: label)
    }

    /// The fix it is on, as the stores identify fixes.
    public var key: LocationKey {
        LocationKey(deviceID: deviceID, location: Location(coordinate: coordinate, timestamp: timestamp))
    }
}

/// The labels people put on their fixes (`LocationLabel`). A label is kept beside its fix, keyed by
/// the fix (device, time, place) and its kind, and read only while that fix is stored: a fix deleted
/// by any route (a range, an import, retention, a privacy zone) takes its label out of every read,
/// and a device's or user's deletion takes the rows. Not part of `TravelogStore`: callers ask
/// `store as? any LabelStore`.
public protocol LabelStore: Sendable {
    /// Keeps labels; a fix's label of the same kind again replaces the text. - Returns: how many
    /// were new or changed.
    @discardableResult
    func addLabels(_ labels: [StoredLabel]) async throws(StoreError) -> Int
    /// The labels on the user's stored fixes in [`from`, `to`), of `deviceIDs` only when given,
    /// oldest first, at most `limit`.
    func labels(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?, limit: Int) async throws(StoreError) -> [StoredLabel]
}
