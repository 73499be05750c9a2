import Foundation
import Testing

/// Real data from other projects lives in `../shared/fixtures` beside the repository. It cannot be
/// committed here, so tests that read it are enabled only when it is present, and say so when not.
public enum SharedFixtures {
    /// The repository's root folder, found from this source file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TravelogTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root

    /// `../shared/fixtures` beside the repository (or `$TRAVELOG_SHARED_FIXTURES`).
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["TRAVELOG_SHARED_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    /// Whether the shared fixtures are there.
    public static var available: Bool {
        FileManager.default.fileExists(atPath: directory.path)
    }

    /// The reason shown for a test that is not run because the fixtures are absent.
    public static let absentReason: Comment =
        "../shared/fixtures is absent: this suite checks Travelog against real data from other projects and needs it beside the repository"

    /// A file or folder inside the shared fixtures, e.g. `url("geographiclib/GeodTest-100.part1-rows1-67.dat")`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// A file that this repository commits for its own tests, relative to `Tests/`.
    public static func ownFixture(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests").appendingPathComponent(relativePath)
    }
}
