import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where every command looks for the data files `make` builds (the gazetteer, the time-zone
/// boundaries, the world base, the magnetic model): the one lookup they all share.
///
/// In order: the file a command's option names, else the one its variable names (then only that
/// file); else the file beside the default database (`$XDG_DATA_HOME/travelog/`), in the folder
/// `make install` fills (`<the executable's folder>/../share/travelog/`), and in `.build-data/` of
/// the current folder (a source checkout).
public enum DataFiles {
    /// The folder `make install` puts the data files in, relative to the running executable
    /// (`/usr/local/bin/travelog` → `/usr/local/share/travelog`); symbolic links are followed.
    public static let installedFolder: String? = {
        let executable: String?
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { readlink("/proc/self/exe", $0, pointer.count - 1) }
        }
        executable = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : Bundle.main.executablePath
        #else
        executable = Bundle.main.executableURL?.resolvingSymlinksInPath().path
        #endif
        return executable.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share").appendingPathComponent("travelog").path
        }
    }()

    /// The paths to try for a data file, in order (see above).
    /// - Parameters:
    ///   - option: the command's option for the file, when given.
    ///   - variable: the environment variable naming the file (`TRAVELOG_GAZETTEER`, …).
    public static func candidates(fileName: String, option: String?, variable: String, environment: [String: String],
                                  installedFolder: String? = installedFolder) -> [String] {
        if let option, !option.isEmpty { return [option] }
        if let path = environment[variable], !path.isEmpty { return [path] }
        let databaseFolder = (DefaultDatabasePath.resolve(option: nil, environment: environment) as NSString).deletingLastPathComponent
        return [databaseFolder + "/" + fileName] + (installedFolder.map { [$0 + "/" + fileName] } ?? []) + [".build-data/" + fileName]
    }

    /// The path to read among the candidates: one named explicitly is returned as it is (its
    /// absence is the loader's to report); a default only when it exists (`nil` when none does).
    public static func existing(among candidates: [String]) -> String? {
        guard candidates.count > 1 else { return candidates.first }
        return candidates.first(where: FileManager.default.fileExists(atPath:))
    }

    /// The plain sentence for a data file none of the defaults holds: where it was looked for and
    /// the command that makes it.
    public static func missing(_ what: String, makeTarget: String, variable: String, searched: [String]) -> String {
        "no \(what) found (looked for \(searched.joined(separator: ", "))): run `make \(makeTarget)` in Travelog's source folder, "
            + "or `make install` to put every data file where the installed commands find them, or set \(variable)"
    }
}
