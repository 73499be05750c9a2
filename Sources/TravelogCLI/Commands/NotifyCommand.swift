import ArgumentParser
import Foundation
import TravelogFormats
import Logging
import TravelogNotify
import TravelogStore

struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Notifications on arrival and for each new journal entry: webhooks and ntfy.",
        subcommands: [Add.self, List.self, Remove.self, Test.self, Log.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a channel: `webhook URL --secret S` (signed JSON POST) or `ntfy URL [--token T]`.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "webhook or ntfy.") var type: String
        @Argument(help: "The URL to POST to (an ntfy topic URL such as https://ntfy.sh/my-topic).") var url: String
        @Option(help: "The webhook's signing secret (16 characters or more).") var secret: String?
        @Option(help: "The ntfy access token, if the topic needs one.") var token: String?
        @Flag(help: "Allow a loopback, private or link-local address (the server needs --allow-private-webhooks too).")
        var allowPrivateWebhooks = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let kind: ChannelKind
            do throws(ChannelSettingError) {
                kind = try ChannelSettings.kind(type: type, url: url, secret: secret, token: token,
                                                policy: AddressPolicy(allowsPrivateAddresses: allowPrivateWebhooks))
            } catch {
                throw ValidationError(error.description)
            }
            let channel = try await store.addChannel(userID: user.id, kind: kind)
            print("channel \(channel.id): \(kind.name) \(kind.url.absoluteString)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the channels.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            for channel in try await store.channels(userID: user.id) {
                print("\(channel.id)\t\(channel.kind.name)\t\(channel.kind.url.absoluteString)")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a channel.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The channel's id.") var id: Int64

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            guard try await store.removeChannel(id: ChannelID(rawValue: id), userID: user.id) else {
                throw ValidationError("no channel \(id)")
            }
            print("channel \(id) removed")
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a test message to every channel now and show what happened.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Let the test reach loopback, private and link-local addresses.")
        var allowPrivateWebhooks = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            // The outcome is printed below; the dispatcher's own lines would say it twice.
            var logger = Logger(label: "travelog.notifications")
            logger.logLevel = .warning
            let dispatcher = NotificationDispatcher(store: store, logger: logger,
                                                    addressPolicy: AddressPolicy(allowsPrivateAddresses: allowPrivateWebhooks))
            let message = NotificationDispatcher.testMessage(at: Date())
            let queued = await dispatcher.notify(message, userID: user.id)
            // Only the test message: what the server has due is the server's to send.
            await dispatcher.deliver(queued)
            let attempts = try await store.deliveries(userID: user.id, limit: 100).filter { $0.message.key == message.key }
            if attempts.isEmpty { print("no channels: add one with `travelog notify add`") }
            for delivery in attempts {
                let outcome = switch delivery.state {
                case .delivered: "delivered"
                case .pending: "not delivered, the server retries it"
                case .failed: "failed"
                }
                print("\(delivery.channel.kind.name) \(TerminalText.escaped(delivery.channel.kind.url.absoluteString)): \(outcome) "
                      + "(\(TerminalText.escaped(delivery.lastResult ?? "")))")
            }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The delivery log, newest first.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let deliveries = try await store.deliveries(userID: user.id, limit: 200)
            if json {
                print(try JournalOutput.json(deliveries.map(DeliveryJSON.init)))
                return
            }
            for delivery in deliveries {
                print("\(ISO8601TimeFormatter.string(delivery.updatedAt))\t\(delivery.message.event)\t\(TerminalText.escaped(delivery.message.title))\t"
                      + "\(delivery.channel.kind.name)\t\(delivery.state.rawValue) after \(delivery.attempts)\t"
                      + TerminalText.escaped(delivery.lastResult ?? ""))
            }
        }
    }
}
