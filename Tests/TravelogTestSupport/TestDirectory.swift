import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One folder for the files a test process writes (databases, inputs, exports), removed when the
/// process exits so that test runs leave nothing behind in the system's temporary folder.
public enum TestDirectory {
    /// `$TMPDIR/travelog-tests-<pid>`, created on first use.
    public static let url: URL = {
        let url = path(for: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(at: TestDirectory.path(for: getpid()))
        }
        return url
    }()

    /// A new, empty folder inside `url`, named after `prefix`.
    public static func makeFolder(_ prefix: String) -> URL {
        let folder = url.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func path(for process: Int32) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("travelog-tests-\(process)", isDirectory: true)
    }
}
