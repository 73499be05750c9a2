import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogCore
import TravelogStore

extension DeviceApp: ExpressibleByArgument {}

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Manage the phones and trackers that report for a user.",
        subcommands: [Add.self, Setup.self, Token.self, List.self, Rename.self, Configure.self, Remove.self, Secret.self])

    /// How phones reach the server, for the settings printed.
    struct ServerURLOption: ParsableArguments {
        @Option(name: .customLong("url"), help: ArgumentHelp(
            "The server's address as phones reach it.",
            discussion: "Default: $TRAVELOG_URL, else http://<this host's name>:8080.", valueName: "url"))
        var url: String?

        @Option(name: .customLong("broker"), help: ArgumentHelp(
            "Where OwnTracks phones in MQTT mode reach the broker, mqtts://HOST:PORT.",
            discussion: "Default: $TRAVELOG_MQTT_PUBLIC_URL, else mqtts://<the server's host>:8883.", valueName: "url"))
        var broker: String?

        var baseURL: String {
            if let url, !url.isEmpty { return url }
            if let url = ProcessInfo.processInfo.environment["TRAVELOG_URL"], !url.isEmpty { return url }
            return "http://\(ProcessInfo.processInfo.hostName):8080"
        }

        func validate() throws {
            do {
                _ = try brokerAddress()
            } catch let error as MQTTBrokerAddressError {
                throw ValidationError("--broker: \(error)")
            }
        }

        func brokerAddress() throws -> MQTTBrokerAddress? {
            if let broker, !broker.isEmpty { return try MQTTBrokerAddress(url: broker) }
            if let broker = ProcessInfo.processInfo.environment["TRAVELOG_MQTT_PUBLIC_URL"], !broker.isEmpty {
                return try MQTTBrokerAddress(url: broker)
            }
            return MQTTBrokerAddress.guessed(fromServerURL: baseURL)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a device; prints its token (shown once), the settings and setup link for each app, and (on a terminal) their QR codes.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var server: ServerURLOption
        @Argument(help: "The device's name, such as phone.") var name: String
        @Option(help: "The app it runs (owntracks, owntracks-mqtt, overland, osmand, traccar, gpslogger, other): its settings only, and how its reports are read.")
        var app: DeviceApp?
        @Option(name: .customLong("owntracks-secret"), help: ArgumentHelp(
            "The OwnTracks encryption secret (the app's Encryption key), kept for the device and put in its setup link.", valueName: "secret"))
        var ownTracksSecret: String?
        @Option(help: "What the token may do: write (its locations; for phone apps) or read (the history too; for scripts).")
        var scope: TokenScope = .write
        @Flag(help: "Print {\"token\": …} only.") var json = false
        @Flag(help: "No QR codes, even on a terminal.") var noQR = false

        func validate() throws {
            if let ownTracksSecret {
                guard app == nil || app == .owntracks || app == .owntracksMQTT else {
                    throw ValidationError("--owntracks-secret is for --app owntracks or owntracks-mqtt")
                }
                guard !ownTracksSecret.isEmpty, !ownTracksSecret.contains(where: \.isNewline) else {
                    throw ValidationError("--owntracks-secret: expected one line of text")
                }
            }
        }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            if ownTracksSecret != nil, !(store is any OwnTracksSecretStore) {
                throw ValidationError("this database cannot keep OwnTracks secrets")
            }
            let (device, token) = try await AccountService(store: store).addDevice(named: name, userID: user.id, app: app, scope: scope)
            if let ownTracksSecret, let secrets = store as? any OwnTracksSecretStore {
                try await secrets.setOwnTracksSecret(ownTracksSecret, deviceID: device.id)
            }
            if json {
                print(DeviceCommand.tokenJSON(token))
                return
            }
            print(DeviceCommand.setupText(baseURL: server.baseURL, user: user.name, device: device.name, token: token, app: app,
                                          broker: try server.brokerAddress(), ownTracksSecret: ownTracksSecret,
                                          qrCodes: !noQR && DeviceCommand.stdoutIsTerminal))
        }
    }

    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a device's settings and setup links again.",
            discussion: """
            Tokens are stored as digests, so the settings come without the token (TOKEN in their \
            place), unless --rotate gives the device a new one (the old one stops working).
            """)

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var server: ServerURLOption
        @Argument(help: "The device's name.") var name: String
        @Option(help: "Only this app's settings (default: the app the device runs, else all).") var app: DeviceApp?
        @Flag(help: "Give the device a new token and put it in the settings and links.") var rotate = false
        @Flag(help: "No QR codes, even on a terminal.") var noQR = false

        func run() async throws {
            let (manager, user) = try await DeviceCommand.open(storeOptions, account)
            let device = try await manager.device(named: name, userID: user.id)
            let token = rotate ? try await manager.rotateToken(device) : nil
            let secret = try await (manager.store as? any OwnTracksSecretStore)?.ownTracksSecret(deviceID: device.id)
            print(DeviceCommand.setupText(baseURL: server.baseURL, user: user.name, device: device.name, token: token,
                                          app: app ?? device.app, broker: try server.brokerAddress(), ownTracksSecret: secret,
                                          qrCodes: !noQR && DeviceCommand.stdoutIsTerminal))
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a device a new token (the old one stops working).")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var server: ServerURLOption
        @Argument(help: "The device's name.") var name: String
        @Flag(help: "Print {\"token\": …} only.") var json = false

        func run() async throws {
            let (manager, user) = try await DeviceCommand.open(storeOptions, account)
            let device = try await manager.device(named: name, userID: user.id)
            let token = try await manager.rotateToken(device)
            print(json ? DeviceCommand.tokenJSON(token)
                       : DeviceCommand.setupText(baseURL: server.baseURL, user: user.name, device: device.name, token: token,
                                                 app: device.app, qrCodes: false))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a user's devices: app, locations, last report, battery, silence watch.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            let (manager, user) = try await DeviceCommand.open(storeOptions, account)
            let now = Date()
            for overview in try await manager.overview(userID: user.id) {
                print(DeviceCommand.listLine(overview, now: now))
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a device (its history follows).")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The device's name.") var name: String
        @Argument(help: "Its new name.") var newName: String

        func run() async throws {
            let (manager, user) = try await DeviceCommand.open(storeOptions, account)
            let device = try await manager.rename(try await manager.device(named: name, userID: user.id), to: newName)
            print("renamed \(TerminalText.escaped(name)) to \(TerminalText.escaped(device.name))")
        }
    }

    struct Configure: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a device's settings.",
            discussion: """
            --silent-after 6h: `travelog serve` notifies (through the user's notification channels) \
            once when the device has sent nothing for 6 hours, and once when it reports again. \
            --silent-after off stops watching.
            """)

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The device's name.") var name: String
        @Option(help: ArgumentHelp("Notify when the device is silent this long (90m, 6h, 2d; off: never).", valueName: "duration"))
        var silentAfter: String?

        func validate() throws {
            guard let silentAfter else { throw ValidationError("nothing to set: give --silent-after DURATION (or off)") }
            if silentAfter != "off", DeviceCommand.seconds(silentAfter) == nil {
                throw ValidationError("--silent-after '\(silentAfter)': expected a duration such as 90m, 6h or 2d, or off")
            }
        }

        func run() async throws {
            let (manager, user) = try await DeviceCommand.open(storeOptions, account)
            let device = try await manager.device(named: name, userID: user.id)
            let seconds = silentAfter.flatMap { $0 == "off" ? nil : DeviceCommand.seconds($0) }
            try await manager.setSilentAfter(seconds: seconds, of: device)
            print(seconds.map { "\(TerminalText.escaped(device.name)): notified when silent for \(DeviceCommand.durationText($0))" }
                  ?? "\(TerminalText.escaped(device.name)): not watched for silence")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a device: its token stops working at once.",
            discussion: """
            By default its history stays and is shown under its name (the name stays taken). With \
            --delete-history its locations, imports, journal entries, region entries and exits and \
            rejected items are deleted too, for good.
            """)

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The device's name.") var name: String
        @Flag(help: "Delete its whole history too.") var deleteHistory = false

        func run() async throws {
            let (manager, user) = try await DeviceCommand.open(storeOptions, account)
            let device = try await manager.device(named: name, userID: user.id)
            try await manager.remove(device, deleteHistory ? .deleteHistory : .keepHistory)
            print(deleteHistory ? "deleted \(TerminalText.escaped(device.name)) and its history"
                                : "removed \(TerminalText.escaped(device.name)); its history stays")
        }
    }

    static func open(_ storeOptions: StoreOptions, _ account: AccountOptions) async throws -> (DeviceManager, User) {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        return (DeviceManager(store: store, accounts: AccountService(store: store)), user)
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    static func tokenJSON(_ token: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["token": token], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func setupText(baseURL: String, user: String, device: String, token: String?, app: DeviceApp?,
                          broker: MQTTBrokerAddress? = nil, ownTracksSecret: String? = nil, qrCodes: Bool) -> String {
        var lines = ["device \(device) of \(user)"]
        if let token {
            lines += ["token: \(token)", "(shown once: keep it in the app's settings)"]
        } else {
            lines += ["(without the token, kept only as a digest: `travelog device setup \(device) --rotate` gives a new one)"]
        }
        lines.append("")
        for setup in AppSetup.instructions(baseURL: baseURL, user: user, device: device, token: token, app: app,
                                           broker: app == .owntracksMQTT ? broker : nil, ownTracksSecret: ownTracksSecret) {
            lines.append(setup.title)
            let width = setup.settings.map(\.0.count).max() ?? 0
            for (setting, value) in setup.settings {
                lines.append("  " + setting + String(repeating: " ", count: width - setting.count) + "  " + value)
            }
            if let link = setup.link {
                lines.append("  open on the phone, or scan: \(link)")
                if qrCodes, let code = try? QRCode(link) { lines.append(code.terminalText()) }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// `phone  overland  1234 locations  last report 3 h ago · 54 % battery (charging) · Overland/2024.1  silent after 6 h`
    static func listLine(_ overview: DeviceManager.Overview, now: Date) -> String {
        var fields = [TerminalText.escaped(overview.device.name), overview.device.app?.rawValue ?? "-",
                      "\(overview.summary?.locationCount ?? 0) locations"]
        let state = overview.state
        var status: [String] = []
        if let report = state.lastReport {
            status.append("last report \(durationText(Int(max(0, now.timeIntervalSince(report.receivedAt))))) ago")
            if let battery = report.batteryPercent {
                status.append("\(Int(battery.rounded())) % battery" + (report.isCharging == true ? " (charging)" : ""))
            }
            if let summary = report.phoneStatus?.summary, !summary.isEmpty { status.append(TerminalText.escaped(summary)) }
            if let agent = report.userAgent { status.append(TerminalText.escaped(agent)) }
        } else {
            status.append("no report yet")
        }
        fields.append(status.joined(separator: " · "))
        if state.retiredAt != nil { fields.append("removed (history kept)") }
        if let after = state.silentAfterSeconds {
            fields.append((state.silenceNotified ? "SILENT, " : "") + "silent after \(durationText(after))")
        }
        return fields.joined(separator: "\t")
    }

    /// `90m`, `6h`, `2d`, `45s` (a bare number is seconds) → whole seconds.
    static func seconds(_ text: String) -> Int? {
        BackupInterval.seconds(text).flatMap { $0 >= 1 && $0 < Double(Int32.max) ? Int($0.rounded()) : nil }
    }

    /// `45 s`, `12 min`, `3 h`, `2 d` (the largest unit that fits).
    static func durationText(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 2 * 86_400 { return "\(seconds / 3600) h" }
        return "\(seconds / 86_400) d"
    }
}

extension TokenScope: ExpressibleByArgument {}
