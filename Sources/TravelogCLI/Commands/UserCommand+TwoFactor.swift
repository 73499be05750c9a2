import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogStore

extension UserCommand {
    /// `travelog user 2fa enable|disable NAME`: two-factor login (TOTP) for a user.
    struct TwoFactor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "2fa",
            abstract: "Two-factor login (a code from an authenticator app after the password).",
            subcommands: [Enable.self, Disable.self])

        struct Enable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make a TOTP secret and ten recovery codes for a user, and turn them on with a code of the app.",
                discussion: """
                    Prints the secret (as text, as a QR code on a terminal and as an otpauth:// URI) and the \
                    recovery codes, then asks for a code of the app on a terminal. Without a terminal (or with \
                    --json) the secret waits: confirm it with `travelog user 2fa enable NAME --confirm CODE`.
                    """)

            @OptionGroup var storeOptions: StoreOptions
            @Argument(help: "The login name.") var name: String
            @Option(help: ArgumentHelp("Turn on the secret made before with a code the app shows now (for scripts).", valueName: "code"))
            var confirm: String?
            @Flag(help: "Print JSON: {user, secret, uri, recoveryCodes, enabled}.") var json = false
            @Flag(help: "No QR code, even on a terminal.") var noQR = false

            func run() async throws {
                let store = try await storeOptions.openStore()
                guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
                let accounts = AccountService(store: store)
                if let confirm {
                    try await accounts.confirmTwoFactor(for: user, code: confirm, from: nil)
                    if json { try Self.printJSON(["user": .string(name), "enabled": .bool(true)]) } else {
                        print("two-factor login is on for \(name)")
                    }
                    return
                }
                let setup = try await accounts.beginTwoFactor(for: user)
                if json {
                    try Self.printJSON(["user": .string(name), "secret": .string(setup.secret), "uri": .string(setup.uri),
                                        "recoveryCodes": .list(setup.recoveryCodes), "enabled": .bool(false)])
                    return
                }
                print("Add this secret to an authenticator app (scan the code, or type the secret):")
                if !noQR, DeviceCommand.stdoutIsTerminal, let code = try? QRCode(setup.uri) { print(code.terminalText()) }
                print("secret\t\(Self.grouped(setup.secret))")
                print("uri\t\(setup.uri)")
                print("Recovery codes (each logs in once without the app; keep them apart from the phone):")
                for code in setup.recoveryCodes { print("  \(code)") }
                guard isatty(STDIN_FILENO) == 1 else {
                    print("not on yet: turn it on with `travelog user 2fa enable \(name) --confirm CODE`")
                    return
                }
                for _ in 0..<3 {
                    FileHandle.standardError.write(Data("Code the app shows now (Enter to confirm later): ".utf8))
                    guard let line = readLine(strippingNewline: true), !line.trimmingCharacters(in: .whitespaces).isEmpty else { break }
                    do {
                        try await accounts.confirmTwoFactor(for: user, code: line, from: nil)
                        print("two-factor login is on for \(name)")
                        return
                    } catch TwoFactorError.wrongCode {
                        FileHandle.standardError.write(Data("\(TwoFactorError.wrongCode.description)\n".utf8))
                    }
                }
                print("not on yet: turn it on with `travelog user 2fa enable \(name) --confirm CODE`")
            }

            /// The secret in groups of four, as apps show it (spaces are ignored when it is typed).
            static func grouped(_ secret: String) -> String {
                stride(from: 0, to: secret.count, by: 4).map { start in
                    String(secret.dropFirst(start).prefix(4))
                }.joined(separator: " ")
            }

            enum Value: Encodable {
                case string(String), bool(Bool), list([String])

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.singleValueContainer()
                    switch self {
                    case .string(let text): try container.encode(text)
                    case .bool(let flag): try container.encode(flag)
                    case .list(let texts): try container.encode(texts)
                    }
                }
            }

            static func printJSON(_ object: [String: Value]) throws {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(object), as: UTF8.self))
            }
        }

        struct Disable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Turn two-factor login off for a user (an operator's way back for a lost phone and lost codes).")

            @OptionGroup var storeOptions: StoreOptions
            @Argument(help: "The login name.") var name: String

            func run() async throws {
                let store = try await storeOptions.openStore()
                guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
                let had = try await AccountService(store: store).disableTwoFactor(userID: user.id)
                print(had ? "two-factor login is off for \(name); the password alone logs in" : "\(name) had no two-factor login")
            }
        }
    }
}
