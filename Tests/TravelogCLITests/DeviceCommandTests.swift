import ArgumentParser
import Foundation
import Testing
import TravelogAccounts
import TravelogCore
@testable import TravelogCLI
import TravelogSQLite
import TravelogStore

@Suite("travelog device")
struct DeviceCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    static func run(_ arguments: [String]) async throws {
        try await ImportExportCommandTests.run(["device"] + arguments)
    }

    @Test("rename, set --silent-after, setup --rotate, remove keeping then deleting the history")
    func manage() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        try await store.setTokenDigest(SecretDigest(rawValue: String(repeating: "a", count: 64)), deviceID: phone.id)
        let db = ["--db", workspace.database, "--user", "ada"]
        try await Self.run(["rename", "phone", "pixel"] + db)
        #expect(try await store.device(id: phone.id)?.name == "pixel")
        try await Self.run(["set", "pixel", "--silent-after", "6h"] + db)
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.silentAfterSeconds == 6 * 3600)
        await #expect(throws: (any Error).self) { try await Self.run(["set", "pixel", "--silent-after", "soon"] + db) }
        await #expect(throws: (any Error).self) { try await Self.run(["set", "pixel", "--silent-after", "10s"] + db) }
        try await Self.run(["set", "pixel", "--silent-after", "off"] + db)
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.silentAfterSeconds == nil)
        try await Self.run(["setup", "pixel", "--rotate", "--no-qr"] + db)
        #expect(try await store.device(tokenDigest: SecretDigest(rawValue: String(repeating: "a", count: 64))) == nil, "a new token replaced the old")
        try await Self.run(["list"] + db)
        try await Self.run(["remove", "pixel"] + db)
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.retiredAt != nil)
        await #expect(throws: (any Error).self) { try await Self.run(["token", "pixel"] + db) }
        try await Self.run(["remove", "pixel", "--delete-history"] + db)
        #expect(try await store.device(id: phone.id) == nil)
        await #expect(throws: (any Error).self) { try await Self.run(["rename", "pixel", "x"] + db) }
    }

    @Test("the settings without a token carry none; the list line says the status")
    func text() throws {
        let text = DeviceCommand.setupText(baseURL: "https://t.example", user: "ada", device: "phone", token: nil, app: .overland, qrCodes: false)
        #expect(text.contains("--rotate"))
        #expect(text.contains("overland://setup?url=https%3A%2F%2Ft.example%2Fapi%2Fv1%2Foverland&device_id=phone&unique_id=yes"))
        let withQR = DeviceCommand.setupText(baseURL: "https://t.example", user: "ada", device: "phone", token: "abc", app: .overland, qrCodes: true)
        #expect(withQR.contains("▀"))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let device = Device(id: DeviceID(rawValue: 1), userID: UserID(rawValue: 1), name: "phone", createdAt: now, app: .owntracks)
        let state = DeviceState(lastReport: DeviceReport(receivedAt: now.addingTimeInterval(-3 * 3600), batteryPercent: 54), silentAfterSeconds: 6 * 3600)
        let line = DeviceCommand.listLine(.init(device: device, summary: nil, state: state), now: now)
        #expect(line == "phone\towntracks\t0 locations\tlast report 3 h ago · 54 % battery\tsilent after 6 h")
        let status = PhoneStatus(trackerID: "ph", connection: .wifi, wifiName: "Koti\u{1B}[2J", monitoringMode: .significant, regions: ["home"])
        let onWifi = DeviceState(lastReport: DeviceReport(receivedAt: now.addingTimeInterval(-60), phoneStatus: status))
        #expect(DeviceCommand.listLine(.init(device: device, summary: nil, state: onWifi), now: now)
            == "phone\towntracks\t0 locations\tlast report 1 min ago · Wi-Fi \"Koti\\u{1B}[2J\" · significant changes · in home",
                "the network's name is the phone's to choose: escaped for the terminal")
    }
}
