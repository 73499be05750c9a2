import Foundation
import Hummingbird
import NIOCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// `POST /api/v1/imports`: any file `travelog import` reads, as the raw body or as
/// `multipart/form-data` (one file or many, as `curl -F file=@ride.gpx` and browsers send them); a
/// ZIP archive (a whole Google Takeout, a `.kmz`) is read entry by entry, straight out of the
/// archive. The body is read as it arrives into a temporary file that has no name (nothing is left
/// behind on any path), then each file goes through the same importer as the command line: stored
/// whole or not at all.
///
/// With `Accept: application/x-ndjson` the answer is a stream of lines, `{"progress": {...}}` while
/// the server reads and `{"report": {...}}` at the end (the page shows the locations read as they
/// are read); otherwise one JSON report (for several files, `{"files": [...]}`).
struct UploadRoutes {
    let importer: FileImporter
    /// The largest upload, bytes.
    let uploadLimitBytes: Int

    func add(to router: RouteRegistry) {
        router.post("/api/v1/imports") { request, context in try await upload(request, context) }
    }

    /// `?device=NAME` (default `imports`), `?format=F` (default: recognised from the content),
    /// `?filename=N` (a raw body's name, for the import's record).
    func upload(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let format = try Self.format(request.query("format"))
        let body = try await SpooledBody(request, limitBytes: uploadLimitBytes)
        var deviceName = request.query("device")
        var files: [(name: String, body: SpooledBody)] = []
        let contentType = request.headers[.contentType] ?? ""
        if FormParameters.mediaType(of: contentType) == "multipart/form-data" {
            do {
                let reader = try MultipartFormReader(source: body.byteSource(),
                                                 boundary: try MultipartFormReader.boundary(fromContentType: contentType))
                while var part = try reader.nextPart() {
                    if let filename = part.filename {
                        files.append((Self.baseName(filename) ?? "upload", try SpooledBody(copying: &part.content, limitBytes: uploadLimitBytes)))
                    } else if part.name == "device" {
                        deviceName = try part.readText(limitBytes: 256).trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                }
            } catch let error as FormatError {
                throw APIError.badRequest("the form is not valid multipart/form-data: \(error)")
            }
            guard !files.isEmpty else { throw APIError.badRequest("the form holds no file (send it as a part with a filename)") }
        } else {
            files = [(Self.baseName(request.query("filename")) ?? "upload", body)]
        }
        let target = DeviceTarget.of(identity, named: deviceName.flatMap { $0.isEmpty ? nil : $0 } ?? "imports", app: nil)
        let uploads = files
        let importer = self.importer
        let work: @Sendable ((@Sendable (ImportProgress) -> Void)?) async -> [ImportReport] = { progress in
            var target = target
            var reports: [ImportReport] = []
            for file in uploads {
                reports += await Self.importFile(file.name, body: file.body, importer: importer, target: &target, format: format,
                                                 progress: progress)
            }
            return reports
        }
        if request.headers[.accept]?.contains("application/x-ndjson") == true {
            return Self.streamed(work)
        }
        let reports = await work(nil)
        let object = Self.answer(reports)
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response.json(data: data, status: reports.allSatisfy(\.failed) ? .badRequest : .ok)
    }

    /// One uploaded file: itself, or each location file of an archive.
    static func importFile(_ name: String, body: SpooledBody, importer: FileImporter, target: inout DeviceTarget,
                           format: FileFormat?, progress: (@Sendable (ImportProgress) -> Void)?) async -> [ImportReport] {
        let contents: ImportFileContents
        do {
            let path = try body.filePath()
            contents = try ImportFileContents(path: path, name: name)
        } catch {
            return [ImportReport(path: name, format: nil, outcome: .failed(reason: String(describing: error)))]
        }
        var reports: [ImportReport] = []
        for var input in contents.inputs {
            if contents.archiveName == nil {
                // Read from the body's own descriptor, not a path that names it.
                input = ImportInput(name: name, fileName: name) { () throws(FormatError) in body.byteSource() }
            }
            reports.append(await importer.importInput(input, to: &target, format: contents.archiveName == nil ? format : nil,
                                                      skipUnrecognized: contents.archiveName != nil, progress: progress))
        }
        if let summary = contents.archiveSummary { reports.append(summary) }
        return reports
    }

    /// The answer for the reports: the report itself for one file, all of them for several.
    static func answer(_ reports: [ImportReport]) -> [String: Any] {
        if reports.count == 1, let only = reports.first { return only.jsonObject }
        var object: [String: Any] = ["files": reports.map(\.jsonObject)]
        object["imported"] = reports.reduce(0) { $0 + $1.inserted }
        object["duplicates"] = reports.reduce(0) { $0 + $1.duplicates }
        object["rejected"] = reports.reduce(0) { $0 + $1.rejected }
        object["status"] = reports.allSatisfy(\.failed) ? "failed" : "imported"
        object["file"] = reports.first.map { ($0.path as NSString).pathComponents.first ?? $0.path } ?? ""
        return object
    }

    /// The import as a stream of NDJSON lines: progress while it runs, the report at the end.
    static func streamed(_ work: @escaping @Sendable ((@Sendable (ImportProgress) -> Void)?) async -> [ImportReport]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let (lines, sink) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(8))
            @Sendable func line(_ object: [String: Any]) -> Data {
                ((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
                    + [0x0A]
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let reports = await work { progress in
                        var object: [String: Any] = ["bytesRead": progress.bytesRead, "locations": progress.locations]
                        if let total = progress.totalBytes { object["totalBytes"] = total }
                        sink.yield(line(["progress": object]))
                    }
                    sink.yield(line(["report": answer(reports)]))
                    sink.finish()
                }
                for await data in lines { try await writer.write(ByteBuffer(bytes: data)) }
                try await group.waitForAll()
            }
            try await writer.finish(nil)
        })
    }

    static func baseName(_ name: String?) -> String? {
        guard let name else { return nil }
        let base = URL(fileURLWithPath: name).lastPathComponent
        return base.isEmpty || base == "/" ? nil : base
    }

    static func format(_ name: String?) throws(APIError) -> FileFormat? {
        guard let name else { return nil }
        guard let chosen = FileFormat(rawValue: name) else {
            throw .badRequest("format '\(name)' is not one of \(FileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return chosen
    }
}
