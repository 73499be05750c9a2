import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a password: from standard input (`--password-stdin`, first line), or at a prompt on the
/// terminal with echo off, asked twice.
enum PasswordPrompt {
    enum Failure: Error, CustomStringConvertible {
        case noTerminal
        case mismatch
        case empty

        var description: String {
            switch self {
            case .noTerminal: "no terminal to ask for a password on: pass it with --password-stdin"
            case .mismatch: "the passwords did not match"
            case .empty: "no password given"
            }
        }
    }

    static func fromStandardInput() throws -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw Failure.empty }
        return line
    }

    static func ask(for name: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else { throw Failure.noTerminal }
        let first = try read(prompt: "Password for \(name): ")
        let second = try read(prompt: "Again: ")
        guard first == second else { throw Failure.mismatch }
        return first
    }

    private static func read(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw Failure.empty }
        return line
    }
}
