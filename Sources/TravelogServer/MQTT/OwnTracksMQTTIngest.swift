import Foundation
import Logging
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// One MQTT message from an OwnTracks phone, stored: its topic `PREFIX/USER/DEVICE[/SUBTOPIC]`
/// names the Travelog user and device (the broker's ACL, `pattern write owntracks/%u/#`, is what
/// guarantees a phone publishes under its own user only: docs/SECURITY.md), the payload goes
/// through `OwnTracksIngest` as an HTTP post's body does. Returns only once what it carries is
/// durable; the subscriber acknowledges the message to the broker after that, and only then.
struct OwnTracksMQTTIngest: Sendable {
    let ingest: OwnTracksIngest
    let metrics: ServerMetrics?
    let logger: Logger
    /// Travelog user names by the topic's (`MQTTSettings.userMap`).
    var userMap: [String: String] = [:]
    /// Offers the device its user's regions after its message, when they changed (none: not offered).
    var commands: OwnTracksCommandPublisher? = nil
    /// A payload larger than this is set aside unread (a phone's message is a few hundred bytes).
    static let maximumPayloadBytes = 256 << 10
    static let route = "mqtt"

    /// What became of a message.
    enum Outcome: String, Sendable {
        /// Stored, or set aside for its user (the good and the wrong items of a message alike).
        case stored
        case setAside = "set_aside"
        /// Not for a Travelog user: acknowledged, logged, counted, nothing kept.
        case unknownUser = "unknown_user"
        /// Not a phone's message (a `…/cmd` topic, an empty retained-message deletion, a topic
        /// without user and device): acknowledged, nothing kept.
        case ignored
        /// The store failed: must not be acknowledged (the broker sends it again).
        case storeFailed = "store_failed"

        var isAcknowledged: Bool { self != .storeFailed }
    }

    /// A message as the broker sent it.
    struct Message: Sendable {
        var topic: String
        var payload: [UInt8]
    }

    func receive(topic: String, payload: [UInt8]) async -> Outcome {
        await receive([Message(topic: topic, payload: payload)])[0]
    }

    /// Stores what a connection read before it acknowledges any of it, and returns each message's
    /// outcome. The phones (topics) are stored at once; a phone's messages in their order, its
    /// plain location messages together in one write (`storePlain`), so a phone's burst costs one
    /// transaction and one look-up of its user and device, not one per message.
    func receive(_ messages: [Message]) async -> [Outcome] {
        var topics: [String] = []
        var byTopic: [String: [Int]] = [:]
        for (index, message) in messages.enumerated() {
            if byTopic[message.topic] == nil { topics.append(message.topic) }
            byTopic[message.topic, default: []].append(index)
        }
        var outcomes = [Outcome](repeating: .ignored, count: messages.count)
        await withTaskGroup(of: [(index: Int, outcome: Outcome)].self) { group in
            for topic in topics {
                let phone = byTopic[topic, default: []].map { (index: $0, payload: messages[$0].payload) }
                group.addTask { await store(topic: topic, messages: phone) }
            }
            for await results in group {
                for result in results { outcomes[result.index] = result.outcome }
            }
        }
        for outcome in outcomes { metrics?.recordMQTTMessage(outcome.rawValue) }
        return outcomes
    }

    /// One topic's messages, in their order: runs of plain location messages written at once, the
    /// others one by one.
    private func store(topic: String, messages: [(index: Int, payload: [UInt8])]) async -> [(index: Int, outcome: Outcome)] {
        let prefix = Array("\(topic)\n".utf8)
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let isPhoneTopic = levels.count == 3 && !levels[1].isEmpty && !levels[2].isEmpty
        var results: [(index: Int, outcome: Outcome)] = []
        var run: [(index: Int, items: [IncomingItem])] = []
        var user: User?? = nil
        var device: Device?
        for message in messages {
            if isPhoneTopic, let items = Self.plainItems(message.payload, rawPrefix: prefix) {
                run.append((message.index, items))
                continue
            }
            if !run.isEmpty {
                results += await storePlain(run, topic: topic, levels: levels, user: &user, device: &device)
                run.removeAll()
            }
            results.append((message.index, await store(topic: topic, payload: message.payload)))
        }
        if !run.isEmpty { results += await storePlain(run, topic: topic, levels: levels, user: &user, device: &device) }
        // Once for the run's messages (the others offered it themselves).
        if let commands, let device { await commands.offerIfChanged(to: device, topicUser: String(levels[1])) }
        return results
    }

    /// The items of a message that carries locations and nothing the slower path must see (not
    /// encrypted, no card, waypoint or transition, not a relayed friend, well-formed): each item's
    /// raw bytes are the topic's line and the item, as rejected items show it. `nil` otherwise.
    static func plainItems(_ payload: [UInt8], rawPrefix: [UInt8]) -> [IncomingItem]? {
        guard payload.count <= plainMessageBytes,
              !isBlank(payload),
              !plainExclusions.contains(where: payload.containsBytes),
              !FriendRelay.isRelayed(payload) else { return nil }
        let reader = OwnTracksReader(source: MemoryByteSource(payload), blockSizeBytes: payload.count + 16)
        var items: [IncomingItem] = []
        var start = 0
        do {
            while let record = try reader.next() {
                let end = reader.bytesConsumed
                var item = IncomingItem(record, index: items.count, bytes: start..<end)
                let body = payload[min(start, payload.count)..<min(max(start, end), payload.count)]
                    .drop { $0 == 0x2C || $0 == 0x5B || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
                item.raw = .bytes(rawPrefix + body)
                items.append(item)
                start = end
            }
        } catch {
            return nil
        }
        return items
    }

    /// Nothing but white space (an empty payload deletes a retained message).
    static func isBlank(_ payload: [UInt8]) -> Bool {
        payload.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// Plain messages are at most this large (a phone's location is a few hundred bytes).
    static let plainMessageBytes = 64 << 10
    /// What sends a message the slower way (`OwnTracksIngest.receive`).
    private static let plainExclusions = ["encrypted", "\"card\"", "waypoint", "transition"].map { Array($0.utf8) }

    /// A run of one topic's plain messages, in one write; a message whose every item was refused
    /// is set aside, as `store(topic:payload:)` counts it.
    private func storePlain(_ run: [(index: Int, items: [IncomingItem])], topic: String, levels: [Substring],
                            user: inout User??, device: inout Device?) async -> [(index: Int, outcome: Outcome)] {
        func all(_ outcome: Outcome) -> [(index: Int, outcome: Outcome)] { run.map { ($0.index, outcome) } }
        let userName = userMap[String(levels[1])] ?? String(levels[1])
        if user == nil {
            do {
                user = .some(try await ingest.writer.store.user(named: userName))
            } catch {
                logger.error("MQTT: '\(topic)' not stored, the store failed: \(error)")
                return all(.storeFailed)
            }
        }
        guard case .some(.some(let owner)) = user, !owner.isDisabled else {
            logger.warning("MQTT: '\(topic)': no enabled Travelog user '\(userName)': \(run.count) messages not stored")
            return all(.unknownUser)
        }
        var target = DeviceTarget.named(String(levels[2]), userID: owner.id, app: .owntracksMQTT)
        do throws(HistoryWriteError) {
            let written = try await ingest.writer.write(run.flatMap(\.items), to: &target, source: .owntracks, visitSource: .file,
                                                        route: Self.route, policy: .keepValid)
            device = target.knownDevice ?? written.device
        } catch {
            logger.error("MQTT: '\(topic)': \(run.count) messages not stored, the store failed (the broker will send them again): \(error)")
            return all(.storeFailed)
        }
        let now = Date()
        return run.map { message in
            let refused = !message.items.isEmpty && message.items.allSatisfy { item in
                switch item.content {
                case .refused: true
                case .location(let location): (try? ingest.writer.plausibility.checked(location, now: now)) == nil
                case .visit, .passedOver: false
                }
            }
            return (message.index, refused ? .setAside : .stored)
        }
    }

    private func store(topic: String, payload: [UInt8]) async -> Outcome {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard levels.count == 3 || levels.count == 4, !levels[1].isEmpty, !levels[2].isEmpty else {
            logger.notice("MQTT: '\(topic)' is not PREFIX/USER/DEVICE[/SUBTOPIC]: passed over")
            return .ignored
        }
        // Commands are for the phones; an empty payload deletes a retained message.
        if levels.count == 4 && levels[3] == "cmd" { return .ignored }
        if Self.isBlank(payload) { return .ignored }
        // Travelog's own relayed friends' positions (`FriendRelay`), back through the subscription.
        if FriendRelay.isRelayed(payload) { return .ignored }
        let user: User?
        do {
            user = try await ingest.writer.store.user(named: userMap[levels[1]] ?? levels[1])
        } catch {
            logger.error("MQTT: '\(topic)' not stored, the store failed: \(error)")
            return .storeFailed
        }
        guard let user, !user.isDisabled else {
            logger.warning("MQTT: '\(topic)': no enabled Travelog user '\(userMap[levels[1]] ?? levels[1])': the message is not stored")
            return .unknownUser
        }
        var target = DeviceTarget.named(levels[2], userID: user.id, app: .owntracksMQTT)
        let body = payload.count > Self.maximumPayloadBytes ? nil : SpooledBody(bytes: payload)
        do throws(HistoryWriteError) {
            let outcome: HistoryWriter.Outcome
            if let body {
                outcome = try await ingest.receive(body, rawPrefix: topic, to: &target, route: Self.route)
            } else {
                let item = IncomingItem(.refused("the message is \(payload.count) bytes, more than the \(Self.maximumPayloadBytes) accepted"),
                                        position: "message", raw: .bytes(Array("\(topic)\n".utf8) + payload.prefix(RejectedItem.maximumRawBytes)))
                outcome = try await ingest.writer.write([item], to: &target, source: .owntracks, visitSource: .file,
                                                        route: Self.route, policy: .keepValid)
            }
            if let commands, let device = target.knownDevice ?? outcome.device {
                await commands.offerIfChanged(to: device, topicUser: levels[1])
            }
            return outcome.refused > 0 && outcome.stored.inserted + outcome.stored.duplicates == 0 ? .setAside : .stored
        } catch {
            logger.error("MQTT: '\(topic)' not stored, the store failed (the broker will send it again): \(error)")
            return .storeFailed
        }
    }
}
