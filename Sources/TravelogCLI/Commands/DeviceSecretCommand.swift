import ArgumentParser
import Foundation
import TravelogStore

extension DeviceCommand {
    /// `travelog device secret DEVICE`: the secret an OwnTracks phone encrypts its messages with.
    struct Secret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the OwnTracks encryption secret of a device (the app's Encryption key), so its encrypted messages are opened.",
            discussion: "The secret is asked for on the terminal, or read from the first line of standard input with --secret-stdin. "
                + "The apps use its first 32 bytes. It is kept in the database as typed: Travelog needs it to open every message.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The device's name.") var name: String
        @Flag(help: "Read the secret from the first line of standard input.") var secretStdin = false
        @Flag(help: "Forget the secret (the phone no longer encrypts).") var clear = false

        func validate() throws {
            guard !(secretStdin && clear) else { throw ValidationError("--secret-stdin and --clear: give one") }
        }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            guard let device = try await store.device(named: name, userID: user.id) else { throw CLIError.noSuchDevice(name) }
            guard let secrets = store as? any OwnTracksSecretStore else {
                throw ValidationError("this database cannot keep OwnTracks secrets")
            }
            let secret = clear ? nil : try (secretStdin ? PasswordPrompt.fromStandardInput() : PasswordPrompt.ask(for: "\(name)'s OwnTracks secret"))
            try await secrets.setOwnTracksSecret(secret, deviceID: device.id)
            if let secret {
                let cut = secret.utf8.count > 32 ? " (the apps use its first 32 bytes, and so does Travelog)" : ""
                print("device \(name) of \(user.name): its encrypted OwnTracks messages are opened with the secret set\(cut);"
                      + " the app's Encryption key must be the same")
            } else {
                print("device \(name) of \(user.name): no OwnTracks secret; its encrypted messages are set aside")
            }
        }
    }
}
