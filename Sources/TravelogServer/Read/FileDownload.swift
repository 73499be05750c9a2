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
        let directory = directory
        return Self.streamed(path: path, headers: headers) { try? FileManager.default.removeItem(at: directory) }
    }

    /// A 200 that streams the file at `path` a megabyte at a time (its length when known), and runs
    /// `then` once it is sent or abandoned.
    static func streamed(path: String, headers: HTTPFields, then: @escaping @Sendable () -> Void = {}) -> Response {
        var headers = headers
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue {
            headers[.contentLength] = String(size)
        }
        let body = ResponseBody { writer in
            defer { then() }
            guard let handle = FileHandle(forReadingAtPath: path) else { return }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// `Content-Disposition` naming a file as sent: an ASCII `filename` (others as `_`) and the
    /// exact name as RFC 6266's `filename*`.
    static func disposition(_ kind: String, fileName: String) -> String {
        let ascii = String(fileName.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let exact = fileName.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ascii
        return "\(kind); filename=\"\(ascii)\"; filename*=UTF-8''\(exact)"
    }
}
