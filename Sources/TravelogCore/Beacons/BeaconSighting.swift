import Foundation

/// One reception of an iBeacon advertisement: which beacon, how strong, when.
public struct BeaconSighting: Sendable, Hashable {
    /// The beacon and its measured power.
    public let advertisement: IBeaconAdvertisement
    /// The received signal strength, dBm.
    public let rssiDBm: Int
    /// When the advertisement was received.
    public let timestamp: Date

    /// Creates a sighting.
    public init(advertisement: IBeaconAdvertisement, rssiDBm: Int, timestamp: Date) {
        self.advertisement = advertisement
        self.rssiDBm = rssiDBm
        self.timestamp = timestamp
    }

    /// The beacon's identity.
    public var identity: BeaconIdentity { advertisement.identity }
}
