import Foundation
import Hummingbird
import TravelogAccounts
import TravelogFormats
import TravelogStore

/// The administrator's view: every user (add, disable, make administrator, reset a password,
/// delete) with their devices and storage, and the server's version, database and data files.
/// Only for an enabled administrator logged in with the page or the password: anyone else gets a
/// 403, a device token of any scope too.
struct AdminRoutes {
    let store: any TravelogStore
    let accounts: AccountService
    let deletion: UserDeletion
    let tiles: HistoryTiles
    let facts: ServerFacts

    struct UserJSON: Encodable {
        var id: Int64
        var name: String
        var administrator: Bool
        var disabled: Bool
        var canLogIn: Bool
        var createdAt: String
        var devices: Int
        var locations: Int
        /// The user's share of the database's size, by their share of its locations; nil for a store in memory.
        var storageEstimateBytes: Int64?
    }

    struct NewUser: Decodable {
        var name: String
        var password: String
        var administrator: Bool?
    }

    struct UserChange: Decodable {
        var disabled: Bool?
        var administrator: Bool?
        var password: String?
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/admin/users") { _, context in
            _ = try context.requireAdministrator()
            return try Response.json(try await userList())
        }
        router.post("/api/v1/admin/users") { request, context in
            _ = try context.requireAdministrator()
            let body: NewUser = try await request.decodeJSON(context: context)
            var user = try await account { () throws(AccountError) in try await accounts.addUser(named: body.name, password: body.password) }
            if body.administrator == true, !user.isAdministrator {
                user = try await account { () throws(AccountError) in try await accounts.setAdministrator(true, userID: user.id) }
            }
            return try Response.json(try await userJSON(user, totals: nil), status: .created)
        }
        router.on("/api/v1/admin/users/{id}", method: .patch) { request, context in
            _ = try context.requireAdministrator()
            let id = try Self.userID(context)
            let change: UserChange = try await request.decodeJSON(context: context)
            guard change.disabled != nil || change.administrator != nil || change.password != nil else {
                throw APIError.badRequest("nothing to change: send disabled, administrator or password")
            }
            if let password = change.password, password.count < AccountService.minimumPasswordCharacters {
                throw AccountError.passwordTooShort(minimumCharacters: AccountService.minimumPasswordCharacters).apiError
            }
            guard var user = try await store.user(id: id) else { throw APIError.notFound("no user with id \(id)") }
            // Each change is checked by the store before it is made; the password last, once the
            // others are in (it cannot fail for a rule).
            if let administrator = change.administrator, administrator != user.isAdministrator {
                user = try await account { () throws(AccountError) in try await accounts.setAdministrator(administrator, userID: id) }
            }
            if let disabled = change.disabled, disabled != user.isDisabled {
                user = try await account { () throws(AccountError) in try await accounts.setDisabled(disabled, userID: id) }
            }
            if let password = change.password {
                try await account { () throws(AccountError) in try await accounts.setPassword(password, userID: id) }
            }
            return try Response.json(try await userJSON(user, totals: nil))
        }
        router.delete("/api/v1/admin/users/{id}") { _, context in
            _ = try context.requireAdministrator()
            let id = try Self.userID(context)
            try await account { () throws(AccountError) in try await deletion.delete(userID: id) }
            tiles.forget(userID: id)
            return Response(status: .noContent)
        }
        router.get("/api/v1/admin/server") { _, context in
            _ = try context.requireAdministrator()
            return try Response.json(try await serverJSON())
        }
    }

    // MARK: Users

    /// Every user with their figures, by name.
    func userList() async throws -> [UserJSON] {
        let users = try await store.users()
        var counts: [UserID: Int] = [:]
        for user in users {
            counts[user.id] = try await store.deviceSummaries(userID: user.id).reduce(0) { $0 + $1.locationCount }
        }
        let totals = (size: try await store.storageSizeBytes(), locations: counts.values.reduce(0, +))
        var list: [UserJSON] = []
        for user in users { list.append(try await userJSON(user, totals: totals, locations: counts[user.id])) }
        return list
    }

    func userJSON(_ user: User, totals: (size: Int64?, locations: Int)?, locations: Int? = nil) async throws -> UserJSON {
        let devices = try await store.devices(userID: user.id).count
        let count: Int
        if let locations { count = locations } else {
            count = try await store.deviceSummaries(userID: user.id).reduce(0) { $0 + $1.locationCount }
        }
        var estimate: Int64?
        if let totals, let size = totals.size {
            estimate = totals.locations == 0 ? 0 : Int64((Double(size) * Double(count) / Double(totals.locations)).rounded())
        }
        return UserJSON(id: user.id.rawValue, name: user.name, administrator: user.isAdministrator, disabled: user.isDisabled,
                        canLogIn: try await store.passwordHash(userID: user.id) != nil,
                        createdAt: ISO8601TimeFormatter.string(user.createdAt), devices: devices, locations: count,
                        storageEstimateBytes: estimate)
    }

    static func userID(_ context: TravelogRequestContext) throws(APIError) -> UserID {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw .badRequest("the user id must be a number") }
        return UserID(rawValue: id)
    }

    // MARK: Server

    struct ServerJSON: Encodable {
        struct Database: Encodable {
            var kind: String
            var location: String
            var sizeBytes: Int64?
        }
        struct DataFile: Encodable {
            var name: String
            var path: String?
            var found: Bool
            var sizeBytes: Int64?
            var modifiedAt: String?
            /// The command that builds it, when it is missing.
            var make: String
        }
        var version: String
        var database: Database
        var users: Int
        var dataFiles: [DataFile]
    }

    func serverJSON() async throws -> ServerJSON {
        let files = facts.dataFiles.map { file in
            let attributes = file.path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0) }
            // As an absolute path: a default is found relative to the server's folder (`.build-data/`).
            return ServerJSON.DataFile(name: file.name, path: file.path.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                                       found: attributes != nil,
                                       sizeBytes: (attributes?[.size] as? NSNumber)?.int64Value,
                                       modifiedAt: (attributes?[.modificationDate] as? Date).map(ISO8601TimeFormatter.string),
                                       make: "make \(file.makeTarget)")
        }
        return ServerJSON(version: ServerFacts.travelogVersion,
                          database: .init(kind: facts.databaseKind, location: facts.databaseDescription,
                                          sizeBytes: try await store.storageSizeBytes()),
                          users: try await store.users().count, dataFiles: files)
    }

    func account<T>(_ body: () async throws(AccountError) -> T) async throws(APIError) -> T {
        do { return try await body() } catch { throw error.apiError }
    }
}

extension TravelogRequestContext {
    /// The caller when it is an enabled administrator logged in with the page or the password;
    /// a 401 without credentials, a 403 otherwise (a device token of any scope included).
    func requireAdministrator() throws(APIError) -> Identity {
        let identity = try requireIdentity()
        guard identity.method != .deviceToken else { throw .forbidden("a device token cannot administer the server") }
        guard identity.user.isAdministrator, !identity.user.isDisabled else {
            throw .forbidden("only an administrator may do this")
        }
        return identity
    }
}
