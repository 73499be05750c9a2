import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Export files are their owner's only", .serialized)
struct FileByteSinkPermissionTests {
    @Test("a new export file is 0600 whatever the umask, and an existing 0644 file becomes 0600")
    func permissions() throws {
        let path = TestDirectory.makeFolder("sink").appendingPathComponent("export.gpx").path
        let previous = umask(0)
        defer { umask(previous) }
        let sink = try FileByteSink(path: path)
        try sink.close()
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(chmod(path, 0o644) == 0)
        try FileByteSink(path: path).close()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }
}
