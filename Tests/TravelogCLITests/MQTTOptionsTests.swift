import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogServer
import TravelogTestSupport

/// `serve`'s MQTT options: `--mqtt-relay-friends` and `--mqtt-user-map` (read by one function for
/// `serve` and `travelog mqtt acl`).
@Suite("serve's MQTT options")
struct MQTTOptionsTests {
    @Test("--mqtt-relay-friends needs --mqtt and reaches the settings; the user map is read for serve and for mqtt acl alike")
    func relayAndUserMap() async throws {
        #expect(throws: (any Error).self) { try MQTTOptions.parse(["--mqtt-relay-friends"]) }
        let relaying = try MQTTOptions.parse(["--mqtt", "mqtt://travelog:secret@127.0.0.1:1883", "--mqtt-relay-friends"])
        #expect(try relaying.settings(environment: [:], readingPassword: false)?.relayFriends == true)
        let plain = try MQTTOptions.parse(["--mqtt", "mqtt://travelog:secret@127.0.0.1:1883"])
        #expect(try plain.settings(environment: [:], readingPassword: false)?.relayFriends == false)

        let folder = TestDirectory.makeFolder("mqtt-options")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("users.map").path
        try Data("ali alice\n# a comment\nd4ve dave\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try MQTTOptions.userMap(file: file) == ["ali": "alice", "d4ve": "dave"])
        let mapped = try MQTTOptions.parse(["--mqtt", "mqtt://travelog:secret@127.0.0.1:1883", "--mqtt-user-map", file])
        #expect(try mapped.settings(environment: [:], readingPassword: false)?.userMap == ["ali": "alice", "d4ve": "dave"])
        #expect(throws: ValidationError.self) { try MQTTOptions.userMap(file: folder.appendingPathComponent("absent.map").path) }
        // travelog mqtt acl reads it with the same function, before opening any store.
        await #expect(throws: ValidationError.self) {
            try await ImportExportCommandTests.run(["mqtt", "acl", "--db", folder.appendingPathComponent("none.sqlite").path,
                                                    "--mqtt-user-map", "/nonexistent/users.map"])
        }
    }
}

@Suite("serve --review-messages")
struct ReviewMessagesOptionsTests {
    @Test("off, yearly or monthly, in metric or imperial units; anything else is refused before the server starts")
    func options() throws {
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["serve", "--review-messages", "weekly"]) }
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["serve", "--review-messages", "yearly", "--review-units", "furlongs"]) }
        let serve = try #require(try TravelogCommand.parseAsRoot(["serve", "--review-messages", "monthly", "--review-units", "imperial"]) as? ServeCommand)
        #expect(serve.reviewMessages == "monthly" && serve.reviewUnits == "imperial")
    }
}
