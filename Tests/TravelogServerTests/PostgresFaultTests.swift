import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TravelogAccounts
import TravelogCore
import TravelogPostgres
@testable import TravelogServer
import TravelogStore
import TravelogTestSupport

/// PostgreSQL stopped under a stream of phone uploads, then started again: while it is down every
/// upload is answered 503 with a JSON error (never a false "ok"), the server reconnects by itself
/// when it is back, and every location it acknowledged is stored. On a cluster of the test's own,
/// with `synchronous_commit` on as in production (an immediate stop is a crash of the database).
@Suite("PostgreSQL restarting under load", .serialized)
struct PostgresFaultTests {
    @Test("uploads while PostgreSQL is stopped are answered 503, the server recovers without a restart, and nothing acknowledged is lost",
          .enabled(if: ThrowawayPostgresCluster.unavailableReason == nil,
                   Comment(rawValue: ThrowawayPostgresCluster.unavailableReason ?? "")),
          arguments: ["fast", "immediate"])
    func restartUnderLoad(stopMode: String) async throws {
        let log = UploadLog()
        // The phases' bounds below are timers of the cooperative pool; this one fires without it.
        let watchdog = Watchdog("PostgresFaultTests (\(stopMode))", seconds: Self.watchdogSeconds) { log.summary }
        defer { watchdog.finish() }
        let cluster = try ThrowawayPostgresCluster(settings: ["fsync=off", "max_connections=40"])
        defer { cluster.remove() }
        let store = try await PostgresLocationStore(url: try PostgresConnectionURL(cluster.url), maximumConnections: 6,
                                                    leaseTimeout: .seconds(2))
        defer { store.close() }
        let app = TravelogServerApp(store: store, configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (iphone, overlandToken) = try await app.accounts.addDevice(named: "iphone", userID: ada.id, app: nil, scope: .write)
        let (pixel, ownTracksToken) = try await app.accounts.addDevice(named: "pixel", userID: ada.id, app: nil, scope: .write)

        try await app.makeApplication().test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.uploadOverland(client, token: overlandToken, log: log) }
                group.addTask { try await Self.uploadOwnTracks(client, token: ownTracksToken, log: log) }
                try await log.wait("6 uploads answered 200 before the stop") { $0.count { $0.status == 200 } >= 6 }
                try await cluster.stop(stopMode)
                await log.enter(.down)
                try await log.wait("4 uploads sent and answered while PostgreSQL is stopped") { answers in
                    answers.count { $0.sent == .down && $0.answered == .down } >= 4
                }
                // A read that streams its rows (the journal's, an export's) fails like the uploads,
                // on a lease of the store's own rather than one PostgresNIO takes without a bound.
                await #expect(throws: StoreError.self) {
                    try await store.forEachBatch(LocationQuery(userID: ada.id), batchSize: 100) { _ in }
                }
                await log.enter(.restarting)
                try await cluster.start()
                await log.enter(.up)
                try await log.wait("6 uploads answered 200 after the start, without restarting the server") {
                    $0.count { $0.sent == .up && $0.status == 200 } >= 6
                }
                await log.finish()
                try await group.waitForAll()
            }
        }

        let answers = await log.answers
        #expect(answers.allSatisfy { [0, 200, 503].contains($0.status) }, "\(Set(answers.map(\.status)))")
        // Every upload is answered, also the ones in flight when PostgreSQL stopped: before the store
        // sent every query through `PostgresConnection.run`, such an upload could wait for ever.
        #expect(answers.allSatisfy { $0.status != 0 }, "\(answers.count { $0.status == 0 }) uploads never answered")
        let whileDown = answers.filter { $0.sent == .down && $0.answered == .down }
        #expect(whileDown.allSatisfy { $0.status == 503 }, "an upload sent and answered while PostgreSQL was stopped was not refused")
        for refused in answers where refused.status == 503 {
            let body = try JSONSerialization.jsonObject(with: Data(refused.body.utf8)) as? [String: Any]
            #expect((body?["error"] as? String)?.isEmpty == false, "503 without a JSON error: \(refused.body)")
        }
        // Every acknowledged location is stored (by time, device by device).
        for (uploader, device) in [(Uploader.overland, iphone), (Uploader.ownTracks, pixel)] {
            let stored = Set(try await store.locations(LocationQuery(userID: ada.id, deviceIDs: [device.id]))
                .map { Int64($0.location.timestamp.timeIntervalSince1970) })
            let acknowledged = answers.filter { $0.uploader == uploader && $0.status == 200 }.flatMap(\.seconds)
            #expect(!acknowledged.isEmpty)
            let lost = acknowledged.filter { !stored.contains($0) }
            #expect(lost.isEmpty, "\(uploader): \(lost.count) acknowledged locations lost, first at \(lost.first ?? 0)")
        }
    }

    static let start: Int64 = 1_700_000_000

    /// Overland batches of 50 points, each batch at times of its own, until the log is finished (or
    /// the test failed and cancelled it).
    static func uploadOverland(_ client: any TestClientProtocol, token: String, log: UploadLog) async throws {
        var batch: Int64 = 0
        while await !log.finished, !Task.isCancelled {
            let first = start + batch * 100
            let phase = await log.phase
            let payload = overlandBatch(count: 50, start: Date(timeIntervalSince1970: Double(first)))
            let (status, body) = try await answer {
                try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token),
                                         body: ByteBuffer(string: payload)) { (Int($0.status.code), String(buffer: $0.body)) }
            }
            await log.record(.overland, sent: phase, status: status, body: body, seconds: Array(first..<first + 50))
            batch += 1
        }
    }

    /// OwnTracks locations, one a request, each a second after the last, until the log is finished
    /// (or the test failed and cancelled it).
    static func uploadOwnTracks(_ client: any TestClientProtocol, token: String, log: UploadLog) async throws {
        var second = start
        while await !log.finished, !Task.isCancelled {
            let phase = await log.phase
            let location = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":\#(second),"tid":"px","acc":8}"#
            let (status, body) = try await answer {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", token),
                                         body: ByteBuffer(string: location)) { (Int($0.status.code), String(buffer: $0.body)) }
            }
            await log.record(.ownTracks, sent: phase, status: status, body: body, seconds: [second])
            second += 1
        }
    }
}

extension PostgresFaultTests {
    /// How long an upload may go unanswered before the uploader gives up on it and goes on.
    static let answerSeconds = 30

    /// How long a whole case may take, from making its cluster to checking what was stored: more
    /// than its three phases' bounds (`UploadLog.waitSeconds` each) and PostgreSQL's stop and start.
    static let watchdogSeconds = 330

    /// The status and body of `send`'s answer, or status 0 when there was none within
    /// `answerSeconds` (the request is left running: a hung request must not hang the test).
    static func answer(_ send: @escaping @Sendable () async throws -> (Int, String)) async throws -> (Int, String) {
        let (answers, answered) = AsyncThrowingStream.makeStream(of: (Int, String).self)
        Task {
            do {
                answered.yield(try await send())
                answered.finish()
            } catch {
                answered.finish(throwing: error)
            }
        }
        return try await withThrowingTaskGroup(of: (Int, String)?.self) { group in
            group.addTask {
                for try await answer in answers { return answer }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(answerSeconds))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next().flatMap { $0 } ?? (0, "no answer within \(answerSeconds) s")
        }
    }
}

enum Uploader: Sendable { case overland, ownTracks }

/// What the uploaders were answered, and in which phase of the database's restart each upload was
/// sent and answered.
actor UploadLog {
    enum Phase: Sendable { case up0, down, restarting, up }

    struct Answer: Sendable {
        let uploader: Uploader
        let sent: Phase
        let answered: Phase
        let status: Int
        let body: String
        /// The locations' times, seconds since 1970.
        let seconds: [Int64]
    }

    private(set) var answers: [Answer] = []
    private(set) var phase = Phase.up0
    private(set) var finished = false
    /// The phase and the answers' statuses so far, for the watchdog (which cannot wait for the actor).
    private let progress = Mutex("phase up0, no answers yet")

    nonisolated var summary: String { progress.withLock { $0 } }

    func enter(_ phase: Phase) {
        self.phase = phase
        noteProgress()
    }

    func finish() {
        finished = true
        noteProgress()
    }

    func record(_ uploader: Uploader, sent: Phase, status: Int, body: String, seconds: [Int64]) {
        answers.append(Answer(uploader: uploader, sent: sent, answered: phase, status: status, body: body, seconds: seconds))
        noteProgress()
    }

    private func noteProgress() {
        let counts = Dictionary(grouping: answers) { "\($0.uploader) \($0.sent)→\($0.answered) \($0.status)" }
            .map { "\($0.key) ×\($0.value.count)" }.sorted()
        let text = "phase \(phase)\(finished ? " (uploads finished)" : ""), answers (sent→answered status): "
            + (counts.isEmpty ? "none" : counts.joined(separator: ", "))
        progress.withLock { $0 = text }
    }

    /// Waits until `condition` holds for the answers (polling), at most `waitSeconds`.
    /// - Throws: `WaitedTooLong` naming `what` and the answers so far.
    func wait(_ what: String, until condition: @Sendable ([Answer]) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(Self.waitSeconds)
        while !condition(answers) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        guard condition(answers) else {
            throw WaitedTooLong(what: what, statuses: answers.map { "\($0.uploader) \($0.sent)→\($0.answered) \($0.status)" })
        }
    }

    /// How long a phase of the test may take (an upload is given up after `answerSeconds`).
    static let waitSeconds = 90

    struct WaitedTooLong: Error, CustomStringConvertible {
        let what: String
        let statuses: [String]
        var description: String {
            "waited \(UploadLog.waitSeconds) s for \(what) in vain; answers (sent→answered status): \(statuses.joined(separator: ", "))"
        }
    }
}
