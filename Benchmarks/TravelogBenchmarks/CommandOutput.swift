import Foundation

/// Runs a command of the benchmarks (`travelog`, `python3`, `sqlite3`) to its end.
enum CommandOutput {
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var output: String
        var description: String { "\(command.prefix(300)) exited with \(status): \(output.suffix(2000))" }
    }

    /// The command's standard output; its errors go to this process's.
    /// - Throws: `CommandOutput.Failure` when it exits with another status than 0.
    static func of(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(command: ([executable.path] + arguments).joined(separator: " "), status: process.terminationStatus, output: text)
        }
        return text
    }

    /// A command found on the PATH.
    static func of(command: String, _ arguments: [String]) throws -> String {
        try of(URL(fileURLWithPath: "/usr/bin/env"), [command] + arguments)
    }
}
