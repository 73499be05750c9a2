import Foundation
import Testing

/// The data files `make` builds into `.build-data/` (the gazetteer, the time-zone boundaries).
/// `make test` builds them before the tests run; suites that need one are enabled only when it
/// exists and say so when it does not.
public enum BuildData {
    /// The path of a file in the repository's `.build-data/`.
    public static func path(_ fileName: String) -> String {
        SharedFixtures.repositoryRoot.appendingPathComponent(".build-data/\(fileName)").path
    }

    /// Whether the file has been built.
    public static func exists(_ fileName: String) -> Bool {
        FileManager.default.fileExists(atPath: path(fileName))
    }

    /// Why a suite needing the file is skipped.
    public static func absentReason(_ fileName: String, goal: String, checks: String) -> Comment {
        ".build-data/\(fileName) is absent: these tests check \(checks); build it with `make \(goal)` (`make test` does)"
    }
}
