import Foundation
import TravelogFormats

/// The Mosquitto ACL file that makes Travelog's promises over MQTT true (docs/SECURITY.md): every
/// broker account writes and reads only under its own name, Travelog's own account reads every
/// phone and writes the phones' commands (and the relayed positions of `FriendRelay`), and friends — accepted in Travelog — read each other's
/// positions and cards, as OwnTracks shows friends. Nobody else reads anybody's topics.
///
/// Broker accounts are Travelog's user names, or the names `--mqtt-user-map` maps to them (a topic
/// name the map does not list is its own). A name that cannot be a topic level (with `/`, `+`, `#`
/// or white space) gets no lines, and a comment says so.
public enum MosquittoACL {
    /// Whether a user's or a device's name can be one level of a topic: not empty, without `/`, `+`,
    /// `#` or white space (the ACL and `FriendRelay` leave the others out).
    public static func isTopicLevel(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(where: { "/+#".contains($0) || $0.isWhitespace || $0.isNewline })
    }

    /// - Parameters:
    ///   - subscriber: Travelog's own broker account (`--mqtt`'s user).
    ///   - friends: the accepted friendships, as pairs of Travelog user names.
    ///   - userMap: `--mqtt-user-map`'s topic user → Travelog user.
    public static func text(subscriber: String, friends: [(String, String)], userMap: [String: String] = [:],
                            generatedAt: Date) -> String {
        var lines = [
            "# Mosquitto ACL made by `travelog mqtt acl` at \(ISO8601TimeFormatter.string(generatedAt)).",
            "# Make it again when friendships change (mosquitto reloads it on SIGHUP).",
            "",
            "# Every account writes under its own name only, and reads its own topics.",
            "pattern write owntracks/%u/#",
            "pattern read owntracks/%u/#",
        ]
        var skipped = Set<String>()
        func usable(_ name: String) -> Bool {
            let ok = isTopicLevel(name)
            if !ok { skipped.insert(name) }
            return ok
        }
        /// The broker accounts (and topic names) that are this Travelog user's.
        func brokerNames(_ user: String) -> [String] {
            var names = userMap.filter { $0.value == user }.map(\.key)
            if userMap[user] == nil || userMap[user] == user { names.append(user) }
            return Set(names).sorted().filter(usable)
        }
        var reads: [String: Set<String>] = [:]
        for (one, other) in friends {
            for (reader, owner) in [(one, other), (other, one)] {
                for account in brokerNames(reader) {
                    for topicUser in brokerNames(owner) {
                        reads[account, default: []].formUnion(["owntracks/\(topicUser)/+", "owntracks/\(topicUser)/+/info"])
                    }
                }
            }
        }
        lines += ["", "# Travelog's own account reads every phone, sends the phones their regions (…/cmd) and, with",
                  "# serve --mqtt-relay-friends, publishes the positions and cards of devices that report over HTTP;",
                  "# with --mqtt-home-assistant, every device as a Home Assistant device tracker (give Home Assistant's",
                  "# account `topic read homeassistant/#` and `topic read travelog/#`).",
                  "user \(subscriber)", "topic read owntracks/#", "topic write owntracks/+/+/cmd",
                  "topic write owntracks/+/+", "topic write owntracks/+/+/info",
                  "topic write homeassistant/device_tracker/#", "topic write travelog/#"]
        if !reads.isEmpty {
            lines += ["", "# Friends (accepted in Travelog) read each other's positions and cards, as OwnTracks shows friends."]
            for account in reads.keys.sorted() where account != subscriber {
                lines.append("user \(account)")
                lines += reads[account, default: []].sorted().map { "topic read \($0)" }
            }
        }
        for name in skipped.sorted() {
            lines.append("# left out: '\(name.replacingOccurrences(of: "\n", with: " "))' cannot be a topic level")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
