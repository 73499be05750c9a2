import ArgumentParser
import Foundation
import TravelogServer
import TravelogStore

/// `travelog mqtt acl`: the broker's ACL for Travelog's users and their friends.
struct MQTTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt",
        abstract: "For OwnTracks through an MQTT broker: the broker's access list.",
        subcommands: [ACL.self])

    struct ACL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "acl",
            abstract: "Print the Mosquitto ACL: each account writes and reads only its own topics; friends read each other's.",
            discussion: """
                Travelog's own account (--subscriber, the user of serve --mqtt) reads every phone and writes the \
                phones' …/cmd. Friends accepted in Travelog read each other's positions and cards, as the OwnTracks \
                app shows friends; nobody else reads anybody's topics. Over the broker a friend sees what the phone \
                publishes as it is: privacy zones apply to what Travelog shows, not to the broker. Write it to \
                Mosquitto's acl_file and make it again when friendships change (mosquitto reloads on SIGHUP).
                """)

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: ArgumentHelp("Travelog's own broker account.", valueName: "name")) var subscriber = "travelog"
        @Option(name: .customLong("mqtt-user-map"), help: ArgumentHelp(
            "serve's --mqtt-user-map file (TOPIC-USER TRAVELOG-USER lines), for accounts named otherwise.", valueName: "file"))
        var userMapFile: String?
        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (default: standard output).", valueName: "file"))
        var output: String?

        func validate() throws {
            guard !subscriber.isEmpty, !subscriber.contains(where: { $0.isWhitespace || "/+#".contains($0) }) else {
                throw ValidationError("--subscriber '\(subscriber)': a broker account name without spaces, '/', '+' or '#'")
            }
        }

        func run() async throws {
            let userMap = try userMapFile.map(MQTTOptions.userMap(file:)) ?? [:]
            let store = try await storeOptions.openStore()
            let text = MosquittoACL.text(subscriber: subscriber, friends: try await Self.friends(in: store), userMap: userMap,
                                         generatedAt: Date())
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                print(text, terminator: "")
            }
        }

        /// Every accepted friendship between enabled users, by name, each once.
        static func friends(in store: any TravelogStore) async throws -> [(String, String)] {
            guard let friendStore = store as? any FriendStore else { return [] }
            let users = try await store.users().filter { !$0.isDisabled }
            let names = Dictionary(users.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            var pairs: [(String, String)] = []
            for user in users {
                for friendship in try await friendStore.friendships(userID: user.id)
                where friendship.isAccepted && friendship.inviterID == user.id {
                    if let other = names[friendship.inviteeID] { pairs.append((user.name, other)) }
                }
            }
            return pairs
        }
    }
}
