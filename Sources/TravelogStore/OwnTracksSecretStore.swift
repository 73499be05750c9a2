/// The secret an OwnTracks phone encrypts its messages with (the app's "Encryption key"), per
/// device. It is kept as typed, not digested: Travelog needs it to open every message. Every
/// backend keeps it with the device (SQLite and PostgreSQL: `devices.owntracks_secret`), so it
/// goes when the device goes. Not part of `TravelogStore`: callers ask `store as? any OwnTracksSecretStore`.
public protocol OwnTracksSecretStore: Sendable {
    /// Sets or (with `nil`) clears the device's secret. - Throws: `StoreError.unknownDevice`.
    func setOwnTracksSecret(_ secret: String?, deviceID: DeviceID) async throws(StoreError)
    /// The device's secret, if one is set.
    func ownTracksSecret(deviceID: DeviceID) async throws(StoreError) -> String?
}
