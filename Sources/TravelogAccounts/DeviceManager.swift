import Foundation
import TravelogStore

/// A user's devices as the Devices settings and `travelog device` manage them: add one (with its
/// token and setup links), rename it, give it a new token, watch it for silence, remove it with or
/// without its history. The server and the command line share it.
public struct DeviceManager: Sendable {
    public let store: any AccountStore & LocationStore & DeviceStore
    public let accounts: AccountService

    /// The shortest and longest silence worth a notification, seconds (a minute; a year).
    public static let silentAfterRange = 60...(366 * 86_400)

    public init(store: any AccountStore & LocationStore & DeviceStore, accounts: AccountService) {
        self.store = store
        self.accounts = accounts
    }

    /// What becomes of a removed device's history.
    public enum Removal: String, Sendable, CaseIterable {
        /// The device is retired (token revoked, no longer watched) and its history stays under its name.
        case keepHistory = "keep"
        /// The device goes with its locations, imports, journal, region transitions and rejected items.
        case deleteHistory = "delete"
    }

    /// A device with what is known of it, for the list.
    public struct Overview: Sendable {
        public var device: Device
        public var summary: DeviceSummary?
        public var state: DeviceState

        public init(device: Device, summary: DeviceSummary?, state: DeviceState) {
            self.device = device
            self.summary = summary
            self.state = state
        }
    }

    /// The user's devices, by name, with their counts and status.
    public func overview(userID: UserID) async throws(DeviceManagementError) -> [Overview] {
        let summaries = try await wrap { () throws(StoreError) in try await store.deviceSummaries(userID: userID) }
        let states = try await wrap { () throws(StoreError) in try await store.deviceStates(userID: userID) }
        return summaries.map { Overview(device: $0.device, summary: $0, state: states[$0.device.id] ?? DeviceState()) }
    }

    /// The user's device with this id, or `.unknownDevice` (another user's device is unknown too).
    public func device(id: DeviceID, userID: UserID) async throws(DeviceManagementError) -> Device {
        guard let device = try await wrap({ () throws(StoreError) in try await store.device(id: id) }), device.userID == userID
        else { throw .unknownDevice("\(id)") }
        return device
    }

    /// The user's device with this name, or `.unknownDevice`.
    public func device(named name: String, userID: UserID) async throws(DeviceManagementError) -> Device {
        guard let device = try await wrap({ () throws(StoreError) in try await store.device(named: name, userID: userID) })
        else { throw .unknownDevice(name) }
        return device
    }

    /// Adds a device; its token is in the answer only.
    public func add(named name: String, userID: UserID, app: DeviceApp?) async throws(DeviceManagementError) -> (device: Device, token: String) {
        do {
            return try await accounts.addDevice(named: name, userID: userID, app: app)
        } catch {
            throw .account(error)
        }
    }

    /// A new token for the device; the old one stops working. A retired device gets none.
    public func rotateToken(_ device: Device) async throws(DeviceManagementError) -> String {
        try await refuseRetired(device)
        do {
            return try await accounts.issueToken(deviceID: device.id)
        } catch {
            throw .account(error)
        }
    }

    public func rename(_ device: Device, to name: String) async throws(DeviceManagementError) -> Device {
        try await wrap { () throws(StoreError) in try await store.renameDevice(id: device.id, to: name) }
    }

    /// Sets after how long without a report the device's silence is notified (`nil`: never).
    /// - Throws: `.silentAfterOutOfRange` outside ``silentAfterRange``; `.retired`.
    public func setSilentAfter(seconds: Int?, of device: Device) async throws(DeviceManagementError) {
        if let seconds, !Self.silentAfterRange.contains(seconds) { throw .silentAfterOutOfRange(seconds: seconds) }
        try await refuseRetired(device)
        try await wrap { () throws(StoreError) in try await store.setSilentAfter(seconds: seconds, deviceID: device.id) }
    }

    /// Removes a device as `removal` says.
    public func remove(_ device: Device, _ removal: Removal, at now: Date = Date()) async throws(DeviceManagementError) {
        switch removal {
        case .keepHistory: try await wrap { () throws(StoreError) in try await store.retireDevice(id: device.id, at: now) }
        case .deleteHistory: try await wrap { () throws(StoreError) in try await store.deleteDevice(id: device.id) }
        }
    }

    private func refuseRetired(_ device: Device) async throws(DeviceManagementError) {
        let states = try await wrap { () throws(StoreError) in try await store.deviceStates(userID: device.userID) }
        if states[device.id]?.retiredAt != nil { throw .retired(device.name) }
    }

    func wrap<T>(_ body: () async throws(StoreError) -> T) async throws(DeviceManagementError) -> T {
        do { return try await body() } catch { throw .account(.store(error)) }
    }
}

/// Why a device could not be managed so.
public enum DeviceManagementError: Error, Equatable, Sendable, CustomStringConvertible {
    case account(AccountError)
    case unknownDevice(String)
    /// The device was removed with its history kept: it takes no token and is not watched.
    case retired(String)
    case silentAfterOutOfRange(seconds: Int)

    public var description: String {
        switch self {
        case .account(let error): error.description
        case .unknownDevice(let name): "no device '\(name)'"
        case .retired(let name): "the device '\(name)' was removed (its history kept): add a new device instead"
        case .silentAfterOutOfRange(let seconds):
            "silent after \(seconds) s: expected \(DeviceManager.silentAfterRange.lowerBound) s to \(DeviceManager.silentAfterRange.upperBound / 86_400) days"
        }
    }
}
