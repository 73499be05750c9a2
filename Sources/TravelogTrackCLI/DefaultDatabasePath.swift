import Foundation

/// Where the database lives when no `--db` is given: `$TRAVELOG_DB`, else
/// `$XDG_DATA_HOME/travelog/travelog.sqlite` (`~/.local/share/…` when unset). The magnetic model
/// and the gazetteer default to files beside it.
public enum DefaultDatabasePath {
    /// - Parameter option: the `--db` value, which wins when given.
    public static func resolve(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["TRAVELOG_DB"], !path.isEmpty { return path }
        return dataDirectory(environment: environment) + "/travelog.sqlite"
    }

    /// Travelog's data directory: `$XDG_DATA_HOME/travelog` (`~/.local/share/travelog` when unset).
    public static func dataDirectory(environment: [String: String]) -> String {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return dataHome + "/travelog"
    }
}
