import Foundation

/// Single-location OwnTracks posts at a fixed rate, open loop: request `i` is due at
/// `start + i / rate` on connection `i mod n`, and its latency runs from that due time to the end
/// of its response, so a stall also counts against every request queued behind it (no
/// coordinated omission). The first `warmUpSeconds` of requests are sent but not counted. A post
/// that fails (no answer within `timeoutSeconds`, a closed connection) is counted among the
/// failures and the next one opens a new connection.
struct OwnTracksLoad {
    var rate: Double
    var seconds: Double
    var connections: Int
    var warmUpSeconds = 1.0
    /// When set, the run ends this long after the last post was due, however far behind the
    /// server is: a post not answered by then is a failure (and one not yet sent is not sent).
    var overrunSeconds: Double? = nil

    /// A post unanswered for this long is a failure (and its connection is opened again).
    static let timeoutSeconds = 30.0

    struct Result {
        var requests: Int
        var warmUpRequests: Int
        var elapsedSeconds: Double
        /// From each request's due time to the end of its response.
        var latency: LatencySummary
        /// From the due time to the send (a connection still busy with the previous request).
        var lateness: LatencySummary
        var failures: [String]
    }

    /// Posts to a server on `port`. `firstIndex` numbers the payloads, so that a second run with
    /// another first index sends new locations rather than duplicates.
    func run(port: Int, authorization: (String, String), firstIndex: Int = 0) async -> Result {
        let warmUp = Int(warmUpSeconds * rate), total = warmUp + Int(seconds * rate)
        let intervalNanoseconds = 1e9 / rate
        let connections = connections
        let latencies = LockedList<UInt64>(), lateSends = LockedList<UInt64>(), failures = LockedList<String>()
        let start = BlockingThreads.nowNanoseconds() + 50_000_000
        let end = overrunSeconds.map { start + UInt64((Double(total) / rate + $0) * 1e9) } ?? .max
        await BlockingThreads.run(connections) { lane in
            var mine: [UInt64] = [], late: [UInt64] = []
            var connection: HTTPConnection?
            for index in stride(from: lane, to: total, by: connections) {
                let due = start + UInt64(Double(index) * intervalNanoseconds)
                BlockingThreads.sleep(untilNanoseconds: due)
                let sent = BlockingThreads.nowNanoseconds()
                guard sent < end else {
                    failures.append(contentsOf: ["not sent: the run's time was up"])
                    continue
                }
                do {
                    let open = try connection ?? HTTPConnection(port: port)
                    connection = open
                    open.setTimeout(seconds: min(Self.timeoutSeconds, Double(end - sent) / 1e9))
                    let response = try open.send("POST", "/api/v1/owntracks", headers: [
                        authorization, ("Content-Type", "application/json"),
                    ], body: ServerPayloads.owntracksLocation(index: firstIndex + index))
                    let done = BlockingThreads.nowNanoseconds()
                    if index >= warmUp {
                        mine.append(done - due)
                        late.append(sent - due)
                    }
                    if response.status != 200 || response.body.first != UInt8(ascii: "[") {
                        failures.append(contentsOf: ["HTTP \(response.status): \(response.text.prefix(200))"])
                    }
                } catch {
                    // Counted, and the next post opens a new connection.
                    failures.append(contentsOf: ["\(error)"])
                    connection = nil
                }
            }
            latencies.append(contentsOf: mine)
            lateSends.append(contentsOf: late)
        }
        return Result(requests: total, warmUpRequests: warmUp, elapsedSeconds: ServerIngestBenchmarks.seconds(since: start),
                      latency: LatencySummary(nanoseconds: latencies.all), lateness: LatencySummary(nanoseconds: lateSends.all),
                      failures: failures.all)
    }
}
