import Foundation

/// A real `travelog serve` child process on a fresh database (a SQLite file, or a new schema of the
/// PostgreSQL server given with `--db`) and a loopback port the kernel
/// picks (`--port 0`; the port is read from the line the server prints once it listens), with the
/// account the benchmarks drive it as: user `ada` with a password and device `phone` with a token,
/// both made with the CLI as a person would.
final class ServerProcess {
    enum Failure: Error, CustomStringConvertible {
        case command(arguments: [String], status: Int32, output: String)
        case noToken(String)
        case didNotStart(log: String)
        case noSession(status: Int, answer: String)

        var description: String {
            switch self {
            case .command(let arguments, let status, let output):
                "travelog \(arguments.joined(separator: " ")) exited with \(status): \(output)"
            case .noToken(let output): "no token in `travelog device add --json` output: \(output)"
            case .didNotStart(let log): "travelog serve did not report its port within 60 s; its log:\n\(log)"
            case .noSession(let status, let answer): "logging in gave HTTP \(status) and no session cookie: \(answer.prefix(200))"
            }
        }
    }

    static let userName = "ada"
    static let password = "pw12345678"
    static let deviceName = "phone"
    /// The page's login cookie (the server's `AuthenticationMiddleware.sessionCookie`).
    static let sessionCookieName = "travelog_session"

    let executable: URL
    /// The SQLite file or the `postgres://` address.
    let databasePath: String
    let logPath: String
    private(set) var port = 0
    private var process: Process?

    /// A new empty database (`NAME.sqlite` in the work folder, or a new schema on the PostgreSQL
    /// server), with the user and the device.
    /// - Returns: the server (not yet started) and the device's token.
    static func prepare(_ context: BenchmarkContext, name: String) throws -> (server: ServerProcess, token: String) {
        let path = context.workDirectory.appendingPathComponent("\(name).sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let database = context.postgresServer.map { newSchema(on: $0, name: name) } ?? path
        let server = ServerProcess(executable: context.travelogExecutable, databasePath: database, logPath: path + ".log")
        _ = try server.command(["user", "add", userName, "--password-stdin"], input: password + "\n")
        return (server, try server.addDevice(deviceName, scope: "read"))
    }

    /// Adds a device of `ada` with the CLI. - Returns: its token.
    /// - Parameter scope: `write` (a phone's: it posts fixes and reads nothing) or `read`.
    func addDevice(_ name: String, scope: String) throws -> String {
        let output = try command(["device", "add", "--user", Self.userName, name, "--scope", scope, "--json"])
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let token = object["token"] as? String else { throw Failure.noToken(output) }
        return token
    }

    init(executable: URL, databasePath: String, logPath: String) {
        self.executable = executable
        self.databasePath = databasePath
        self.logPath = logPath
    }

    /// The server's address with a schema no run has used (`bench_NAME_…`, left for the operator to drop).
    static func newSchema(on server: String, name: String) -> String {
        let schema = "bench_" + name.replacingOccurrences(of: "-", with: "_") + "_"
            + UUID().uuidString.prefix(8).lowercased()
        return server + (server.contains("?") ? "&" : "?") + "schema=" + schema
    }

    deinit { stop() }

    /// Runs `travelog ARGUMENTS --db DATABASE` to its end. - Returns: its standard output.
    @discardableResult
    func command(_ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--db", databasePath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.command(arguments: arguments, status: process.terminationStatus, output: text)
        }
        return text
    }

    /// Starts `travelog serve` (with `arguments` added to its own) and waits until it listens. Its
    /// log goes to `logPath`.
    func start(arguments: [String] = []) throws {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--db", databasePath, "--port", "0"] + arguments
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        let marker = "open http://127.0.0.1:"
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: marker) {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), port > 0 {
                    self.port = port
                    return
                }
            }
            usleep(20_000)
        }
        stop()
        throw Failure.didNotStart(log: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
    }

    /// How the server ended when it has ended by itself (a crash, a kill); `nil` while it runs or
    /// after `stop()`.
    var ending: String? {
        guard let process, !process.isRunning else { return nil }
        return process.terminationReason == .uncaughtSignal ? "killed by signal \(process.terminationStatus)"
            : "exited with status \(process.terminationStatus)"
    }

    /// The server's process id while it runs.
    var processIdentifier: Int32? { process.map(\.processIdentifier) }

    /// The server's resident memory now and at its peak, bytes (`/proc/PID/status`: VmRSS, VmHWM).
    func memory() -> (residentBytes: Int, peakBytes: Int) {
        guard let process else { return (0, 0) }
        return Self.memory(processIdentifier: process.processIdentifier)
    }

    /// A process's resident memory now and at its peak, bytes; (0, 0) once it has ended.
    static func memory(processIdentifier: Int32) -> (residentBytes: Int, peakBytes: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8) else { return (0, 0) }
        func kilobytes(_ key: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(key) }
                .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        }
        return (kilobytes("VmRSS:") * 1024, kilobytes("VmHWM:") * 1024)
    }

    /// SIGTERM (a graceful stop), then waits for the process to end; after `killAfterSeconds`
    /// (when given) a SIGKILL ends it.
    /// - Returns: how long it took to end, seconds, and whether it had to be killed.
    @discardableResult
    func stop(killAfterSeconds: Double? = nil) -> (seconds: Double, killed: Bool) {
        guard let process, process.isRunning else { return (0, false) }
        let start = Date()
        process.terminate()
        var killed = false
        if let killAfterSeconds {
            while process.isRunning, Date().timeIntervalSince(start) < killAfterSeconds { usleep(20_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        process.waitUntilExit()
        self.process = nil
        return (Date().timeIntervalSince(start), killed)
    }

    /// `Authorization` header values.
    static func bearer(_ token: String) -> (String, String) { ("Authorization", "Bearer \(token)") }
    static func basic(_ user: String, _ secret: String) -> (String, String) {
        ("Authorization", "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString())
    }

    /// Logs `ada` in with her password (`POST /api/v1/session`), as the page does.
    /// - Returns: the `Cookie` header that carries the session, and `X-Requested-With`, which a
    ///   change made with the cookie needs.
    func logIn() throws -> [(String, String)] {
        let body = try JSONSerialization.data(withJSONObject: ["user": Self.userName, "password": Self.password])
        let response = try HTTPConnection(port: port).send("POST", "/api/v1/session", headers: [("Content-Type", "application/json")],
                                                           body: Array(body))
        let prefix = Self.sessionCookieName + "="
        guard response.status == 200,
              let cookie = response.headers.first(where: { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix(prefix) })
        else { throw Failure.noSession(status: response.status, answer: response.text) }
        return [("Cookie", String(cookie.value.prefix { $0 != ";" })), ("X-Requested-With", "XMLHttpRequest")]
    }

    /// How many locations the server has stored for the device (`GET /api/v1/devices`).
    func storedLocationCount(token: String) throws -> Int {
        let response = try HTTPConnection(port: port).send("GET", "/api/v1/devices", headers: [Self.bearer(token)])
        guard response.status == 200,
              let devices = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]],
              let device = devices.first(where: { $0["name"] as? String == Self.deviceName }),
              let count = device["locations"] as? Int else { return -1 }
        return count
    }
}
