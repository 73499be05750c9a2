import Foundation

/// What a user manages of their devices beyond adding them (`AccountStore`): a new name, removal
/// with or without the history, the status each device last reported, and when a silent device is
/// worth a notification. Every backend passes the same conformance suite
/// (`Tests/TravelogStoreTests/DeviceStoreConformanceTests.swift`).
public protocol DeviceStore: Sendable {
    /// Renames a device. - Throws: `StoreError.unknownDevice`, `.deviceExists` (another device of
    /// the user has the name), `.invalidName`.
    func renameDevice(id: DeviceID, to name: String) async throws(StoreError) -> Device

    /// Removes a device but keeps its history: its token stops working at once (the digest is
    /// dropped), it stops being watched for silence, and it is marked retired; its locations,
    /// journal, imports and rejected items stay and are shown under its name, which stays taken.
    /// Retiring a retired device changes nothing. - Throws: `StoreError.unknownDevice`.
    func retireDevice(id: DeviceID, at date: Date) async throws(StoreError)

    /// Removes a device with its whole history, atomically: its locations (and the map-area
    /// boxes counting them), imports, journal visits, region transitions and monitor state, rejected
    /// items and status. Places and regions are the user's and stay.
    /// - Throws: `StoreError.unknownDevice`.
    func deleteDevice(id: DeviceID) async throws(StoreError)

    /// Records what a device said with its latest batch (one write a batch, by `HistoryWriter`):
    /// the report replaces the previous one, except that a battery level, charging state or user
    /// agent the new report does not have is kept from before. A report older than the one kept
    /// (`receivedAt`) changes nothing. - Throws: `StoreError.unknownDevice`.
    func recordReport(_ report: DeviceReport, deviceID: DeviceID) async throws(StoreError)

    /// Per device of the user, what is known beyond the `Device` (devices never heard from and
    /// never configured are missing).
    func deviceStates(userID: UserID) async throws(StoreError) -> [DeviceID: DeviceState]

    /// Sets after how long without a report the device counts as silent (`nil`: never); a new
    /// setting forgets whether a silence was notified. - Throws: `StoreError.unknownDevice`,
    /// `.invalidName` never; a duration below one minute is the caller's to refuse.
    func setSilentAfter(seconds: Int?, deviceID: DeviceID) async throws(StoreError)

    /// Records whether the device's current silence was notified (so the watcher tells it once,
    /// and tells "reporting again" once). - Throws: `StoreError.unknownDevice`.
    func setSilenceNotified(_ notified: Bool, deviceID: DeviceID) async throws(StoreError)

    /// Every device, of every user, with a silence threshold set (and not retired), with its state.
    func watchedDevices() async throws(StoreError) -> [(device: Device, state: DeviceState)]
}
