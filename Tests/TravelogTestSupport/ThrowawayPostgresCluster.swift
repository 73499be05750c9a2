import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of a test's own (`scripts/postgres-cluster.sh`), which the test may stop and
/// start again, or start with settings of its own: the fault tests cannot stop the server the other
/// suites share, and the plan test needs `pg_stat_statements` loaded.
public struct ThrowawayPostgresCluster: Sendable {
    /// Why a cluster cannot be made here, or `nil` when it can.
    public static let unavailableReason: String? = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        if versions.contains(where: { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }) {
            return nil
        }
        return "PostgreSQL's server programs are not installed (scripts/with-postgres.sh installs them): the fault tests did not run"
    }()

    public let folder: URL
    /// `postgres://…` of the cluster's database.
    public let url: String

    /// Creates and starts a cluster with the server `settings` (`name=value`).
    public init(settings: [String]) throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("travelog-fault-\(UUID().uuidString)")
        url = try Self.script(["create", folder.path] + settings.flatMap { ["-c", $0] })
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server: `fast` (sessions told to end) or `immediate` (as if it crashed).
    public func stop(_ mode: String) async throws { _ = try await Self.offThePool { [folder] in try Self.script(["stop", folder.path, mode]) } }

    public func start() async throws { _ = try await Self.offThePool { [folder] in try Self.script(["start", folder.path]) } }

    /// Runs blocking work (waiting for pg_ctl) on a thread of its own, not on one of the few
    /// threads of Swift's cooperative pool that the server under test needs meanwhile.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    public func remove() { _ = try? Self.script(["remove", folder.path]) }

    /// Runs the script and returns its standard output, through `posix_spawn` and `waitpid`:
    /// Foundation's `Process.waitUntilExit` never returned for it here (the script's child daemon).
    /// - Throws: `ScriptFailed` with its standard error when it exits with a status other than 0.
    private static func script(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-cluster-\(UUID().uuidString)")
        let path = SharedFixtures.repositoryRoot.appendingPathComponent("scripts/postgres-cluster.sh").path
        // `exec` so that the shell's redirections apply and the exit status is the script's.
        let command = "exec \"$0\" \"$@\" >'\(output.path).out' 2>'\(output.path).err' </dev/null"
        let argv = ["/bin/sh", "-c", command, path] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &cArguments, environ) == 0 else {
            throw ScriptFailed(arguments: arguments, message: "could not start /bin/sh")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output.path + ".out", encoding: .utf8)) ?? ""
        let message = (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: output.path + ".out")
        try? FileManager.default.removeItem(atPath: output.path + ".err")
        // Exited normally (low 7 bits 0) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { throw ScriptFailed(arguments: arguments, message: message) }
        return text
    }

    public struct ScriptFailed: Error, CustomStringConvertible {
        public let arguments: [String]
        public let message: String
        public var description: String { "postgres-cluster.sh \(arguments.joined(separator: " ")) failed: \(message)" }
    }
}
