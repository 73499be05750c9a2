import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogStore

extension DeviceApp: ExpressibleByArgument {}

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Manage the phones and trackers that report for a user.",
        subcommands: [Add.self, Token.self, List.self])

    /// How phones reach the server, for the settings printed.
    struct ServerURLOption: ParsableArguments {
        @Option(name: .customLong("url"), help: ArgumentHelp(
            "The server's address as phones reach it.",
            discussion: "Default: $TRAVELOG_URL, else http://<this host's name>:8080.", valueName: "url"))
        var url: String?

        var baseURL: String {
            if let url, !url.isEmpty { return url }
            if let url = ProcessInfo.processInfo.environment["TRAVELOG_URL"], !url.isEmpty { return url }
            return "http://\(ProcessInfo.processInfo.hostName):8080"
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a device; prints its token (shown once) and the settings to paste into each app.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var server: ServerURLOption
        @Argument(help: "The device's name, such as phone.") var name: String
        @Option(help: "The app it runs (owntracks, overland, osmand, traccar, gpslogger, other): its settings only, and how its reports are read.")
        var app: DeviceApp?
        @Option(help: "What the token may do: write (its locations; for phone apps) or read (the history too; for scripts).")
        var scope: TokenScope = .write
        @Flag(help: "Print {\"token\": …} only.") var json = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let (device, token) = try await AccountService(store: store).addDevice(named: name, userID: user.id, app: app, scope: scope)
            if json {
                print(DeviceCommand.tokenJSON(token))
                return
            }
            print(DeviceCommand.setupText(baseURL: server.baseURL, user: user.name, device: device.name, token: token, app: app))
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
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            guard let device = try await store.device(named: name, userID: user.id) else { throw CLIError.noSuchDevice(name) }
            let token = try await AccountService(store: store).issueToken(deviceID: device.id)
            print(json ? DeviceCommand.tokenJSON(token)
                       : DeviceCommand.setupText(baseURL: server.baseURL, user: user.name, device: device.name, token: token, app: device.app))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a user's devices.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            for summary in try await store.deviceSummaries(userID: user.id) {
                print("\(TerminalText.escaped(summary.device.name))\t\(summary.device.app?.rawValue ?? "-")\t\(summary.locationCount) locations")
            }
        }
    }

    static func tokenJSON(_ token: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["token": token], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func setupText(baseURL: String, user: String, device: String, token: String, app: DeviceApp?) -> String {
        var lines = ["device \(device) of \(user)", "token: \(token)", "(shown once: keep it in the app's settings)", ""]
        for setup in AppSetup.instructions(baseURL: baseURL, user: user, device: device, token: token, app: app) {
            lines.append(setup.title)
            let width = setup.settings.map(\.0.count).max() ?? 0
            for (setting, value) in setup.settings {
                lines.append("  " + setting + String(repeating: " ", count: width - setting.count) + "  " + value)
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

extension TokenScope: ExpressibleByArgument {}
