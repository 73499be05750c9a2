import TravelogCore

extension LEAdvertisingReport {
    /// The iBeacon sighting this report carries, or `nil` when its data is no iBeacon
    /// advertisement or the controller gave no RSSI.
    public var beaconSighting: BeaconSighting? {
        guard let rssiDBm, let advertisement = try? IBeaconAdvertisement(advertisingData: data) else { return nil }
        return BeaconSighting(advertisement: advertisement, rssiDBm: rssiDBm, timestamp: timestamp)
    }
}

extension BTSnoopCapture {
    /// The iBeacon sightings of the capture, in order: what ranging and beacon-region monitoring
    /// are fed when a `btmon -w` capture is replayed.
    /// - Throws: ``BTSnoopError/malformedEvent(recordIndex:subeventCode:needed:available:)``.
    public func beaconSightings() throws(BTSnoopError) -> [BeaconSighting] {
        try advertisingReports().compactMap(\.beaconSighting)
    }
}
