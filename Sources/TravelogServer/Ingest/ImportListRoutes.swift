import Foundation
import Hummingbird
import TravelogFormats
import TravelogStore

/// `GET /api/v1/imports`: the files the user imported (page, `travelog import`), newest first,
/// with what each stored. Read with the page, the password or a read token.
/// `DELETE /api/v1/imports/{id}` (the person only): the import and every location it stored are
/// deleted; the journal detects the stretch anew and the map's index is rebuilt.
struct ImportListRoutes {
    let store: any TravelogStore
    let journal: JournalService
    let tiles: HistoryTiles

    struct ImportJSON: Encodable {
        var id: Int64
        var device: String?
        var fileName: String
        var format: String
        var contentSHA256: String?
        var importedAt: String
        var inserted: Int
        var duplicates: Int
        var rejected: Int
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/imports") { request, context in
            let identity = try context.requireIdentity()
            let limit = try request.integerQuery("limit", in: 1...1000, default: 100)
            let devices = Dictionary(try await store.devices(userID: identity.user.id).map { ($0.id, $0.name) },
                                     uniquingKeysWith: { first, _ in first })
            let imports = try await store.imports(userID: identity.user.id).prefix(limit)
            return try Response.json(imports.map { record in
                ImportJSON(id: record.id.rawValue, device: devices[record.deviceID], fileName: record.provenance.fileName,
                           format: record.provenance.format, contentSHA256: record.provenance.contentSHA256,
                           importedAt: ISO8601TimeFormatter.string(record.importedAt), inserted: record.inserted,
                           duplicates: record.duplicates, rejected: record.rejected)
            })
        }
        router.delete("/api/v1/imports/{id}") { _, context in
            let identity = try context.requirePerson()
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the import id must be a number") }
            guard let deleted = try await store.deleteImport(ImportID(rawValue: id), userID: identity.user.id) else {
                throw APIError.notFound("no import \(id)")
            }
            if let span = deleted.span, let device = try await store.device(id: deleted.record.deviceID) {
                // Without the fixes (`stored: nil`): the journal reads the stretch back, going on
                // from a resume point before it, which no deleted fix fed.
                journal.enqueue(device: device, from: span.lowerBound, to: span.upperBound)
                tiles.historyRemoved(userID: identity.user.id)
            }
            return Response(status: .noContent)
        }
    }
}
