#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `travelog track …` runs as the lean `travelog-track` executable when it sits beside this one:
/// the process is replaced (`execv`, same process id, same arguments after `track`), so a tracker
/// that runs for months maps only the tracker, not the server, the stores and the renderer (about a
/// third of the memory). Without the sibling, or with `TRAVELOG_TRACK_IN_PROCESS=1`, `track` runs
/// in this process as every other command does.
enum LeanTracker {
    /// The sibling's file name.
    static let executableName = "travelog-track"

    /// Replaces this process by the sibling when the command is `track` and the sibling can be
    /// executed; returns (to run in-process) otherwise.
    static func execIfTracking(_ arguments: [String]) {
        guard arguments.count >= 2, arguments[1] == "track",
              getenv("TRAVELOG_TRACK_IN_PROCESS").map({ String(cString: $0) }) != "1",
              let path = siblingPath(), access(path, X_OK) == 0 else { return }
        let argv = [path] + arguments.dropFirst(2)
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(path, &cArguments)
        for pointer in cArguments { free(pointer) }   // execv returned: it failed; stay in-process
    }

    /// `travelog-track` in the folder of this executable (`/proc/self/exe`, symbolic links resolved).
    static func siblingPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return String(executable[...slash]) + executableName
    }
}
