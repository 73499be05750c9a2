import Foundation
import TravelogCore

/// A location as a store keeps it: the fix, the device that reported it, and its provenance.
public struct StoredLocation: Hashable, Sendable {
    public var deviceID: DeviceID
    /// The fix, at storage precision (`StoragePrecision`).
    public var location: Location
    public var source: LocationSource
    /// The import that brought it in, if it came from a file.
    public var importID: ImportID?

    public init(deviceID: DeviceID, location: Location, source: LocationSource, importID: ImportID? = nil) {
        self.deviceID = deviceID
        self.location = location
        self.source = source
        self.importID = importID
    }

    /// The identity of a fix: two locations with the same key are the same fix, stored once.
    public var key: LocationKey { LocationKey(deviceID: deviceID, location: location) }
}

/// The de-duplication key: device, timestamp (to the millisecond) and coordinate (to 1e-7°).
public struct LocationKey: Hashable, Sendable {
    public var deviceID: DeviceID
    public var timestampMilliseconds: Int64
    public var latitudeE7: Int64
    public var longitudeE7: Int64

    public init(deviceID: DeviceID, location: Location) {
        self.deviceID = deviceID
        self.timestampMilliseconds = StoragePrecision.milliseconds(location.timestamp)
        self.latitudeE7 = StoragePrecision.e7(location.coordinate.latitude)
        self.longitudeE7 = StoragePrecision.e7(location.coordinate.longitude)
    }
}

/// The precision every store keeps: coordinates to 1e-7° (about 1 cm), times to the millisecond.
/// Every backend rounds the same way, so that what one store returns another returns too.
public enum StoragePrecision {
    /// Degrees → integer units of 1e-7°, rounded to nearest.
    public static func e7(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }
    /// Integer units of 1e-7° → degrees.
    public static func degrees(e7: Int64) -> Double { Double(e7) / 1e7 }
    /// A date → milliseconds since 1970, rounded to nearest.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
    /// Milliseconds since 1970 → a date.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The location as a store returns it: coordinate and time rounded to storage precision.
    public static func rounded(_ location: Location) -> Location {
        var rounded = location
        // Rounding a valid coordinate to 1e-7° keeps it valid (±90 and ±180 are multiples of 1e-7).
        if let coordinate = Coordinate(validLatitude: degrees(e7: e7(location.coordinate.latitude)),
                                       longitude: degrees(e7: e7(location.coordinate.longitude))) {
            rounded.coordinate = coordinate
        }
        rounded.timestamp = date(milliseconds: milliseconds(location.timestamp))
        return rounded
    }
}
