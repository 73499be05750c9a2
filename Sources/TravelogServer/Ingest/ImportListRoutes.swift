import Foundation
import Hummingbird
import TravelogFormats
import TravelogStore

/// `GET /api/v1/imports`: the files the user imported (page, `travelog import`), newest first,
/// with what each stored. Read with the page, the password or a read token.
struct ImportListRoutes {
    let store: any TravelogStore

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
    }
}
