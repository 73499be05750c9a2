import Foundation
import Testing
import TravelogServer

/// `MosquittoACL`: the broker's ACL for Travelog's users and their friends (`travelog mqtt acl`).
@Suite("Mosquitto ACL for friends")
struct MosquittoACLTests {
    static let at = Date(timeIntervalSince1970: 1_700_000_000)

    static func entries(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    @Test("each account reads only its own topics; each side of a friendship reads the other's positions and cards, once; the subscriber reads all")
    func friends() {
        let text = MosquittoACL.text(subscriber: "travelog", friends: [("alice", "bob"), ("carol", "alice"), ("alice", "bob")], generatedAt: Self.at)
        #expect(text.hasPrefix("# Mosquitto ACL made by `travelog mqtt acl` at 2023-11-14T22:13:20Z."))
        #expect(Self.entries(text) == [
            "pattern write owntracks/%u/#", "pattern read owntracks/%u/#",
            "user travelog", "topic read owntracks/#", "topic write owntracks/+/+/cmd",
            "topic write owntracks/+/+", "topic write owntracks/+/+/info",
            "topic write homeassistant/device_tracker/#", "topic write travelog/#",
            "user alice", "topic read owntracks/bob/+", "topic read owntracks/bob/+/info",
            "topic read owntracks/carol/+", "topic read owntracks/carol/+/info",
            "user bob", "topic read owntracks/alice/+", "topic read owntracks/alice/+/info",
            "user carol", "topic read owntracks/alice/+", "topic read owntracks/alice/+/info",
        ])
        #expect(!text.contains("pattern read owntracks/#"), "nobody reads everybody")
    }

    @Test("broker accounts named otherwise (--mqtt-user-map) read and are read under their broker names; a name that cannot be a topic level is left out and said")
    func userMapAndUnusableNames() {
        let text = MosquittoACL.text(subscriber: "travelog", friends: [("alice", "bob smith"), ("alice", "dave")],
                                     userMap: ["ali": "alice", "d4ve": "dave"], generatedAt: Self.at)
        let entries = Self.entries(text)
        // The map makes ali alice's; her own name, listed nowhere, stays hers too (as serve reads topics).
        #expect(entries.contains("user ali") && entries.contains("user alice") && entries.contains("user d4ve"))
        #expect(entries.contains("topic read owntracks/d4ve/+") && entries.contains("topic read owntracks/ali/+"))
        #expect(!text.contains("owntracks/bob smith"))
        #expect(text.contains("# left out: 'bob smith' cannot be a topic level"))
        #expect(MosquittoACL.text(subscriber: "travelog", friends: [], generatedAt: Self.at).contains("user travelog"))
    }
}
