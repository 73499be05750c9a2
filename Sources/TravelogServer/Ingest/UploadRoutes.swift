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
    /// Parts per form, and what an archive may hold.
    let limits: UploadLimits

    func add(to router: RouteRegistry) {
        router.post("/api/v1/imports") { request, context in try await upload(request, context) }
    }

    /// `?device=NAME` (default `imports`), `?format=F` (default: recognised from the content),
    /// `?filename=N` (a raw body's name, for the import's record).
    ///
    /// Every file is opened (an archive's central directory checked against `limits`) before the
    /// answer starts, so a limit is a 413 that names it; the work stops when the client goes away.
    func upload(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let format = try Self.format(request.query("format"))
        let body = try await SpooledBody(request, limitBytes: uploadLimitBytes)
        var deviceName = request.query("device")
        let files: [UploadedFile]
        let contentType = request.headers[.contentType] ?? ""
        if FormParameters.mediaType(of: contentType) == "multipart/form-data" {
            let form = try UploadForm(body: body, contentType: contentType, maximumParts: limits.maximumParts)
            files = form.files
            deviceName = form.deviceName ?? deviceName
        } else {
            files = [UploadedFile(name: Self.baseName(request.query("filename")) ?? "upload", byteRange: 0..<body.byteCount)]
        }
        let target = DeviceTarget.of(identity, named: deviceName.flatMap { $0.isEmpty ? nil : $0 } ?? "imports", app: nil)
        let archiveLimits = limits.archive
        let opened = try await context.untilClientLeaves {
            try files.map { file throws(APIError) in (file, try Self.open(file, in: body, limits: archiveLimits)) }
        }
        let importer = self.importer
        let work: @Sendable ((@Sendable (ImportProgress) -> Void)?) async throws -> [ImportReport] = { progress in
            try await context.untilClientLeaves {
                var target = target
                var reports: [ImportReport] = []
                for (file, contents) in opened {
                    try Task.checkCancellation()
                    reports += await Self.importFile(file, contents: contents, body: body, importer: importer, target: &target,
                                                     format: format, progress: progress)
                }
                return reports
            }
        }
        if request.headers[.accept]?.contains("application/x-ndjson") == true {
            return Self.streamed(work)
        }
        let reports = try await work(nil)
        let object = Self.answer(reports)
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response.json(data: data, status: reports.allSatisfy(\.failed) ? .badRequest : .ok)
    }

    /// What an uploaded file holds: itself, or an archive's location files; a file that cannot be
    /// opened is reported failed, an archive over the limits (or with overlapping entries) refuses
    /// the whole upload.
    /// - Throws: `APIError.http(413)` naming the limit, `.badRequest` for overlapping entries.
    static func open(_ file: UploadedFile, in body: SpooledBody, limits: ZipArchiveLimits) throws(APIError)
        -> Result<ImportFileContents, FormatError> {
        let path: String
        do { path = try body.filePath() } catch { return .failure(.cannotRead(path: file.name, reason: "\(error)")) }
        do throws(FormatError) {
            return .success(try ImportFileContents(path: path, byteRange: file.byteRange, name: file.name, limits: limits))
        } catch .zip(let error) {
            if error.isLimitExceeded { throw .http(status: .contentTooLarge, "\(file.name): \(Self.describe(error))") }
            if case .overlappingEntries = error.kind { throw .badRequest("\(file.name): \(Self.describe(error))") }
            return .failure(.zip(error))
        } catch {
            return .failure(error)
        }
    }

    /// A ZIP error without the server's path of the upload.
    static func describe(_ error: ZipArchiveError) -> String {
        error.entryName.map { "entry '\($0)': \(error.kind)" } ?? "\(error.kind)"
    }

    /// One uploaded file: itself, or each location file of an archive.
    static func importFile(_ file: UploadedFile, contents opened: Result<ImportFileContents, FormatError>, body: SpooledBody,
                           importer: FileImporter, target: inout DeviceTarget, format: FileFormat?,
                           progress: (@Sendable (ImportProgress) -> Void)?) async -> [ImportReport] {
        let contents: ImportFileContents
        switch opened {
        case .success(let value): contents = value
        case .failure(let error): return [ImportReport(path: file.name, format: nil, outcome: .failed(reason: error.description))]
        }
        var reports: [ImportReport] = []
        for var input in contents.inputs {
            if contents.archiveName == nil {
                // Read the file's own range of the body, not a path that names the whole body.
                let range = file.byteRange
                input = ImportInput(name: file.name, fileName: file.name) { () throws(FormatError) in body.byteSource(in: range) }
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
    static func streamed(_ work: @escaping @Sendable ((@Sendable (ImportProgress) -> Void)?) async throws -> [ImportReport]) -> Response {
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
                    defer { sink.finish() }
                    let reports = try await work { progress in
                        var object: [String: Any] = ["bytesRead": progress.bytesRead, "locations": progress.locations]
                        if let total = progress.totalBytes { object["totalBytes"] = total }
                        sink.yield(line(["progress": object]))
                    }
                    sink.yield(line(["report": answer(reports)]))
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
