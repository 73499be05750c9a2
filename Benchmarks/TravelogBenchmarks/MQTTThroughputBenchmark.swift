import Foundation

/// `mqtt-throughput`: OwnTracks location messages through a real Mosquitto (Debian's, started here on
/// a free loopback port with a throwaway configuration, as scripts/mqtt-test.sh does) into
/// `travelog serve --mqtt … --mqtt-connections N` on SQLite, every message at QoS 1 and
/// acknowledged by Travelog only once stored.
///
/// 1. Sustained: P phones (`mosquitto_pub -l`, one device each) publish M messages as fast as they
///    go; the broker queues what Travelog has not taken yet. Prints messages/s stored over the
///    whole run and the slowest 10 s, from `travelog_mqtt_messages_total{outcome="stored"}` read
///    every second. The issue's target: ≥ 20,000/s for a minute.
/// 2. Latency: one phone at 200 messages/s; from the moment a message is handed to its publisher
///    to the moment the server's live stream (`GET /api/v1/live`, read by curl) shows it stored.
///    Target: p99 < 50 ms.
/// 3. Drained (`drained`): the messages queued at the broker while Travelog is away, then taken by it.
///
/// Environment: `TRAVELOG_BENCH_MQTT_MESSAGES` (M, default 1,200,000), `TRAVELOG_BENCH_MQTT_PHONES`
/// (P, default 8), `TRAVELOG_BENCH_MQTT_CONNECTIONS` (a list, default "1 4 16 32": each a run of
/// its own), `TRAVELOG_BENCH_MQTT_LATENCY_SECONDS` (default 20), `TRAVELOG_BENCH_MQTT_INFLIGHT` (the
/// broker's `max_inflight_messages`, Mosquitto's 20 by default: how many messages Travelog is sent
/// before it acknowledges, so how many it stores at once per connection), `TRAVELOG_BENCH_MQTT_PROTOCOL`
/// (`5`: Travelog speaks MQTT 5 and asks for a window of its own).
enum MQTTThroughputBenchmark {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var messages: Int { environment["TRAVELOG_BENCH_MQTT_MESSAGES"].flatMap(Int.init) ?? 1_200_000 }
    static var phones: Int { max(1, environment["TRAVELOG_BENCH_MQTT_PHONES"].flatMap(Int.init) ?? 8) }
    static var connectionCounts: [Int] {
        (environment["TRAVELOG_BENCH_MQTT_CONNECTIONS"] ?? "1 4 16 32").split(separator: " ").compactMap { Int($0) }
    }
    static var latencySeconds: Double { environment["TRAVELOG_BENCH_MQTT_LATENCY_SECONDS"].flatMap(Double.init) ?? 20 }
    static let latencyRate = 200.0
    /// The broker's `max_inflight_messages` (`TRAVELOG_BENCH_MQTT_INFLIGHT`; Mosquitto's default, 20, when unset).
    static var inflight: Int? { environment["TRAVELOG_BENCH_MQTT_INFLIGHT"].flatMap(Int.init) }
    /// Travelog's MQTT version (`TRAVELOG_BENCH_MQTT_PROTOCOL`, 3.1.1 when unset; 5 asks the broker for
    /// a window of 2,000 messages, its Receive Maximum).
    static var protocolVersion: String? { environment["TRAVELOG_BENCH_MQTT_PROTOCOL"] }
    /// 2024-03-01T00:00:00Z: the first message's time; each phone's n-th message is a second later.
    static let firstEpochSeconds = 1_709_251_200

    enum Failure: Error, CustomStringConvertible {
        case missing(String)
        case broker(String)
        case stalled(stored: Int, expected: Int)

        var description: String {
            switch self {
            case .missing(let tool): "\(tool) is missing (Debian's mosquitto and mosquitto-clients: make deps-bench)"
            case .broker(let log): "mosquitto did not start: \(log)"
            case .stalled(let stored, let expected): "stored \(stored) of \(expected), then nothing for 30 s"
            }
        }
    }

    static func run(_ context: BenchmarkContext) async throws {
        for tool in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_pub", "/usr/bin/curl"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw Failure.missing(tool)
        }
        print("  \(messages) messages from \(phones) phones at QoS 1; connections: \(connectionCounts.map(String.init).joined(separator: ", "))"
              + "; the broker's max_inflight_messages \(inflight.map(String.init) ?? "20 (its default)")"
              + "; MQTT \(protocolVersion ?? "3.1.1")")
        let lines = (0..<phones).map { phone in phoneLines(phone: phone, count: messages / phones) }
        for connections in connectionCounts {
            try sustained(context, connections: connections, lines: lines)
        }
        try drained(context, connections: connectionCounts.min() ?? 1, lines: lines)
        try latency(context, connections: connectionCounts.max() ?? 1)
    }

    /// The phone's messages, one a line, a second apart.
    static func phoneLines(phone: Int, count: Int) -> Data {
        var text = ""
        text.reserveCapacity(count * 96)
        for index in 0..<count {
            let latitude = 52.0 + Double(phone) * 0.01 + Double(index % 10_000) * 1e-5
            text += "{\"_type\":\"location\",\"tid\":\"P\(phone)\",\"tst\":\(firstEpochSeconds + index),"
                + "\"lat\":\(String(format: "%.6f", latitude)),\"lon\":13.4,\"acc\":10,\"batt\":80}\n"
        }
        return Data(text.utf8)
    }

    /// The most lines one `mosquitto_pub -l` publishes.
    static let publisherLines = 60_000

    /// The data cut into pieces of at most `lines` lines.
    static func chunks(of data: Data, lines: Int) -> [Data] {
        var pieces: [Data] = []
        var start = data.startIndex
        var count = 0
        var index = data.startIndex
        while index < data.endIndex {
            if data[index] == UInt8(ascii: "\n") {
                count += 1
                if count == lines {
                    pieces.append(data[start...index])
                    start = data.index(after: index)
                    count = 0
                }
            }
            index = data.index(after: index)
        }
        if start < data.endIndex { pieces.append(data[start...]) }
        return pieces
    }

    static func sustained(_ context: BenchmarkContext, connections: Int, lines: [Data]) throws {
        let broker = try Broker(workDirectory: context.workDirectory)
        defer { broker.stop() }
        let (server, _) = try ServerProcess.prepare(context, name: "mqtt-throughput-\(connections)")
        try server.start(arguments: broker.serveArguments + ["--mqtt-connections", "\(connections)", "--metrics", "loopback"])
        defer { server.stop() }
        try waitForConnections(server, connections)
        let total = lines.reduce(0) { $0 + $1.split(separator: UInt8(ascii: "\n")).count }
        let start = Date()
        // mosquitto_pub -l (2.0.11) disconnects once the message with its last message id is
        // acknowledged, and ids wrap at 65,535: a publisher is given at most 60,000 lines.
        let publishers = try lines.enumerated().flatMap { phone, data in
            try chunks(of: data, lines: publisherLines).map { chunk in
                try broker.publisher(topic: "owntracks/\(ServerProcess.userName)/phone\(phone)", input: chunk)
            }
        }
        let (elapsed, slowest) = try waitUntilStored(server, total: total, since: start)
        for publisher in publishers { publisher.waitUntilExit() }
        print("  --mqtt-connections \(connections): \(total) stored in \(Figures.seconds(elapsed)): "
              + "\(Int(Double(total) / elapsed)) messages/s"
              + (slowest.isFinite ? ", slowest 10 s \(Int(slowest))/s" : "")
              + "; server peak memory \(Figures.megabytes(Double(server.memory().peakBytes)))")
    }

    /// 3. Drained: the same messages published while Travelog is away (its session queues them at the
    ///    broker), then Travelog started: how fast it takes them. The phones' work is done before the
    ///    clock starts, as it is on their own devices; what is measured is the broker sending and
    ///    Travelog storing.
    static func drained(_ context: BenchmarkContext, connections: Int, lines: [Data]) throws {
        let broker = try Broker(workDirectory: context.workDirectory)
        defer { broker.stop() }
        let (server, _) = try ServerProcess.prepare(context, name: "mqtt-drain-\(connections)")
        let arguments = broker.serveArguments + ["--mqtt-connections", "\(connections)", "--metrics", "loopback"]
        // Once connected, its session and subscription stay with the broker while it is stopped.
        try server.start(arguments: arguments)
        try waitForConnections(server, connections)
        _ = server.stop()
        let total = lines.reduce(0) { $0 + $1.split(separator: UInt8(ascii: "\n")).count }
        let publishers = try lines.enumerated().flatMap { phone, data in
            try chunks(of: data, lines: publisherLines).map { chunk in
                try broker.publisher(topic: "owntracks/\(ServerProcess.userName)/phone\(phone)", input: chunk)
            }
        }
        for publisher in publishers { publisher.waitUntilExit() }
        try server.start(arguments: arguments)
        defer { server.stop() }
        let start = Date()
        let (elapsed, slowest) = try waitUntilStored(server, total: total, since: start)
        print("  queued at the broker first, then taken (--mqtt-connections \(connections)): \(total) stored in \(Figures.seconds(elapsed)): "
              + "\(Int(Double(total) / elapsed)) messages/s" + (slowest.isFinite ? ", slowest 10 s \(Int(slowest))/s" : ""))
    }

    static func latency(_ context: BenchmarkContext, connections: Int) throws {
        let broker = try Broker(workDirectory: context.workDirectory)
        defer { broker.stop() }
        let (server, _) = try ServerProcess.prepare(context, name: "mqtt-latency")
        try server.start(arguments: broker.serveArguments + ["--mqtt-connections", "\(connections)", "--metrics", "loopback"])
        defer { server.stop() }
        try waitForConnections(server, connections)
        let stream = try LiveStream(port: server.port)
        defer { stream.stop() }
        let connectDeadline = Date().addingTimeInterval(10)
        while !stream.isConnected, Date() < connectDeadline { Thread.sleep(forTimeInterval: 0.05) }
        let count = Int(latencySeconds * latencyRate)
        let input = Pipe()
        let publisher = try broker.publisher(topic: "owntracks/\(ServerProcess.userName)/paced", input: nil, pipe: input)
        var sent = [UInt64](repeating: 0, count: count)
        let start = BlockingThreads.nowNanoseconds()
        for index in 0..<count {
            let due = start + UInt64(Double(index) / latencyRate * 1e9)
            let now = BlockingThreads.nowNanoseconds()
            if due > now { usleep(useconds_t((due - now) / 1000)) }
            sent[index] = BlockingThreads.nowNanoseconds()
            let line = "{\"_type\":\"location\",\"tst\":\(firstEpochSeconds + index),\"lat\":52.5,\"lon\":13.4,\"acc\":10}\n"
            input.fileHandleForWriting.write(Data(line.utf8))
        }
        try input.fileHandleForWriting.close()
        publisher.waitUntilExit()
        let deadline = Date().addingTimeInterval(30)
        while stream.received.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let received = stream.received
        let latencies = (0..<count).compactMap { index in
            received[firstEpochSeconds + index].map { $0 > sent[index] ? $0 - sent[index] : 0 }
        }
        let summary = LatencySummary(nanoseconds: latencies)
        print("  one phone at \(Int(latencyRate))/s for \(Int(latencySeconds)) s (--mqtt-connections \(connections)): "
              + "\(latencies.count) of \(count) seen stored; publish → stored \(summary.line([50, 90, 99])) (target p99 < 50 ms)")
    }

    /// Reads the stored count every second until `total` are stored: the seconds since `start`, and
    /// the slowest rate over any 10 s (infinity for a run shorter than that).
    static func waitUntilStored(_ server: ServerProcess, total: Int, since start: Date) throws -> (elapsed: Double, slowest: Double) {
        var samples: [(seconds: Double, stored: Int)] = [(0, 0)]
        var lastChange = Date()
        while samples.last!.stored < total {
            Thread.sleep(forTimeInterval: 1)
            let stored = storedCount(server)
            if stored > samples.last!.stored { lastChange = Date() }
            samples.append((Date().timeIntervalSince(start), stored))
            if Date().timeIntervalSince(lastChange) > 30 { throw Failure.stalled(stored: stored, expected: total) }
        }
        var slowest = Double.infinity
        for (index, sample) in samples.enumerated() {
            guard let later = samples[index...].first(where: { $0.seconds - sample.seconds >= 10 }) else { break }
            slowest = min(slowest, Double(later.stored - sample.stored) / (later.seconds - sample.seconds))
        }
        return (samples.last!.seconds, slowest)
    }

    static func waitForConnections(_ server: ServerProcess, _ connections: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            if log.components(separatedBy: "MQTT: connected").count - 1 >= connections { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Failure.broker("the server did not connect \(connections) times within 30 s")
    }

    /// `travelog_mqtt_messages_total{outcome="stored"}` now.
    static func storedCount(_ server: ServerProcess) -> Int {
        guard let response = try? HTTPConnection(port: server.port).send("GET", "/metrics", headers: []) else { return 0 }
        let prefix = "travelog_mqtt_messages_total{outcome=\"stored\"} "
        return response.text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) } ?? 0
    }

    /// Debian's Mosquitto on a free loopback port, anonymous, persistence off, no limit on what it
    /// queues for Travelog.
    final class Broker {
        let port: Int
        let folder: URL
        private let process: Process

        init(workDirectory: URL) throws {
            port = Self.freePort()
            folder = workDirectory.appendingPathComponent("mosquitto-\(port)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let configuration = """
                user \(ProcessInfo.processInfo.environment["USER"] ?? "root")
                listener \(port) 127.0.0.1
                allow_anonymous true
                persistence false
                max_queued_messages 0
                max_queued_bytes 0
                \(inflight.map { "max_inflight_messages \($0)" } ?? "")

                """
            let configurationPath = folder.appendingPathComponent("mosquitto.conf").path
            try configuration.write(toFile: configurationPath, atomically: true, encoding: .utf8)
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
            process.arguments = ["-c", configurationPath]
            let log = folder.appendingPathComponent("mosquitto.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            for _ in 0..<100 {
                if Self.accepts(port) { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            process.terminate()
            throw Failure.broker((try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }

        var serveArguments: [String] {
            ["--mqtt", "mqtt://travelog@127.0.0.1:\(port)"] + (protocolVersion.map { ["--mqtt-protocol", $0] } ?? [])
        }

        /// `mosquitto_pub -l` at QoS 1 with its input from `input` (all of it, then closed), or from `pipe`.
        func publisher(topic: String, input: Data?, pipe: Pipe = Pipe()) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            process.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-l",
                                 "-i", "bench-\(topic.split(separator: "/").last ?? "")-\(UUID().uuidString.prefix(6))"]
            process.standardInput = pipe
            try process.run()
            if let input {
                let handle = pipe.fileHandleForWriting
                Thread.detachNewThread {
                    handle.write(input)
                    try? handle.close()
                }
            }
            return process
        }

        /// SIGKILL (it keeps nothing; started from this process it does not end on SIGTERM).
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }

        static func freePort() -> Int {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        static func accepts(_ port: Int) -> Bool {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }
    }

    /// The server's live stream read by curl: when each location (by its time, epoch seconds) was
    /// seen stored.
    final class LiveStream: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var seen: [Int: UInt64] = [:]
        private var connected = false

        init(port: Int) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-sN", "-u", "\(ServerProcess.userName):\(ServerProcess.password)", "http://127.0.0.1:\(port)/api/v1/live"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let handle = output.fileHandleForReading
            Thread.detachNewThread { [self] in
                var pending = Data()
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                let plain = ISO8601DateFormatter()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return }
                    let now = BlockingThreads.nowNanoseconds()
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if line.hasPrefix(": connected") { lock.withLock { connected = true } }
                        guard line.hasPrefix("data: "),
                              let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any],
                              let locations = object["locations"] as? [[String: Any]] else { continue }
                        for location in locations {
                            guard let text = (location["properties"] as? [String: Any])?["timestamp"] as? String,
                                  let date = formatter.date(from: text) ?? plain.date(from: text) else { continue }
                            let seconds = Int(date.timeIntervalSince1970.rounded())
                            lock.withLock { if seen[seconds] == nil { seen[seconds] = now } }
                        }
                    }
                }
            }
        }

        var received: [Int: UInt64] { lock.withLock { seen } }
        /// The server answered and the stream is open (its first comment line arrived).
        var isConnected: Bool { lock.withLock { connected } }

        func stop() {
            kill(process.processIdentifier, SIGTERM)
        }
    }
}
