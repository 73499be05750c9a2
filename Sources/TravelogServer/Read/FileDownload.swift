import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A download written to a temporary folder before the answer starts, then streamed from disk a
/// megabyte at a time (never held in memory), and removed with its folder once sent or abandoned:
/// `GET /api/v1/export` and `GET /api/v1/account/export`.
struct FileDownload {
    /// The folder the file is written in (`travelog-NAME-UUID` in the temporary folder).
    let directory: URL
    /// The file, inside `directory`.
    let path: String

    init(prefix: String, fileName: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        path = directory.appendingPathComponent(fileName).path
    }

    /// Removes the folder (a failed write).
    func discard() { try? FileManager.default.removeItem(at: directory) }

    /// A 200 that streams the file as an attachment named `fileName`, and then removes its folder.
    func response(contentType: String, fileName: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.contentDisposition] = "attachment; filename=\"\(fileName)\""
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue {
            headers[.contentLength] = String(size)
        }
        let (path, directory) = (path, directory)
        let body = ResponseBody { writer in
            defer { try? FileManager.default.removeItem(at: directory) }
            guard let handle = FileHandle(forReadingAtPath: path) else { return }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
