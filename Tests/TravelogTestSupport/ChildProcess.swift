import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end and gives back its exit status and what it wrote, for tests that
/// compare with a real tool (exiftool, gpsbabel, osmium, python3…).
///
/// Not Foundation's `Process`: on Linux (swift-corelibs-foundation up to Swift 6.3.1) its `run()`
/// lists `/proc/self/fd` with a copy that reads up to 256 bytes past each directory entry, and when
/// the process has many files open — the test process runs hundreds of servers at once — the read
/// crosses into an unmapped page and the whole test run dies with SIGSEGV (seen in a fresh-clone
/// `make test`: "Bad pointer dereference" in `Process.run()`; swift-corelibs-foundation PR #5472).
/// This spawns with `posix_spawnp` directly; stdout and stderr go to temporary files (no pipe to
/// fill up), stdin is `/dev/null`.
public enum ChildProcess {
    public struct Result: Sendable {
        /// The exit status; 128 + the signal's number when a signal ended it.
        public var status: Int32
        public var output: [UInt8]
        public var errors: [UInt8]
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// A program left running (a server a test talks to), its standard output going to `outputPath`.
    public struct Running: Sendable {
        public let pid: pid_t
        public let outputPath: String

        /// The first line it wrote, waiting up to `seconds` for it (`nil` when none came).
        public func firstLine(seconds: Double = 60) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let bytes = try? Data(contentsOf: URL(fileURLWithPath: outputPath)), let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                    return String(decoding: bytes[..<end], as: UTF8.self)
                }
                usleep(20_000)
            }
            return nil
        }

        /// Kills it and waits for it; its output file is removed.
        public func stop() {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            unlink(outputPath)
        }
    }

    /// Starts `executable` with `arguments` and leaves it running (stderr to `/dev/null`).
    public static func start(_ executable: String, _ arguments: [String]) throws -> Running {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-child-\(UUID().uuidString).out").path
        let pid = try spawn(executable, arguments, outputPath: outputPath, errorPath: "/dev/null")
        return Running(pid: pid, outputPath: outputPath)
    }

    private static func spawn(_ executable: String, _ arguments: [String], outputPath: String, errorPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw SpawnFailed(description: "\(executable): cannot be started (\(String(cString: strerror(spawned))))")
        }
        return pid
    }

    /// Runs `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    public static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let folder = FileManager.default.temporaryDirectory
        let stamp = UUID().uuidString
        let outputPath = folder.appendingPathComponent("travelog-child-\(stamp).out").path
        let errorPath = folder.appendingPathComponent("travelog-child-\(stamp).err").path
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        let pid = try spawn(executable, arguments, outputPath: outputPath, errorPath: errorPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SpawnFailed(description: "\(executable): waitpid failed (\(String(cString: strerror(errno))))") }
        }
        let signal = status & 0x7f
        let exit = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let output = (try? Data(contentsOf: URL(fileURLWithPath: outputPath))).map { [UInt8]($0) } ?? []
        let errors = (try? Data(contentsOf: URL(fileURLWithPath: errorPath))).map { [UInt8]($0) } ?? []
        return Result(status: exit, output: output, errors: errors)
    }
}
