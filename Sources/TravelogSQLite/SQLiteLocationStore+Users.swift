import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore {
    public func setAdministrator(_ isAdministrator: Bool, userID: UserID) async throws(StoreError) -> User {
        try await changeUser("changing an administrator", userID, administrator: isAdministrator, disabled: nil)
    }

    public func setDisabled(_ isDisabled: Bool, userID: UserID) async throws(StoreError) -> User {
        try await changeUser("disabling a user", userID, administrator: nil, disabled: isDisabled)
    }

    public func deleteUser(id: UserID) async throws(StoreError) {
        // Every table's rows of the user go with it (ON DELETE CASCADE from users and devices), but
        // the map-area boxes' R*Tree rows, which have no foreign key: they go first, by the boxes' ids.
        try await write("deleting a user") { db throws(StoreError) in
            try Self.keepAnAdministrator(db, id, administrator: false, disabled: true)
            try Self.execute(db, "deleting a user", """
                DELETE FROM location_days_rtree WHERE id IN
                    (SELECT d.id FROM location_days d JOIN devices v ON v.id = d.device_id WHERE v.user_id = ?)
                """, [id.rawValue])
            try Self.execute(db, "deleting a user", "DELETE FROM users WHERE id = ?", [id.rawValue])
        }
    }

    private func changeUser(_ operation: String, _ id: UserID, administrator: Bool?, disabled: Bool?) async throws(StoreError) -> User {
        try await write(operation) { db throws(StoreError) -> User in
            var user = try Self.keepAnAdministrator(db, id, administrator: administrator, disabled: disabled)
            user.isAdministrator = administrator ?? user.isAdministrator
            user.isDisabled = disabled ?? user.isDisabled
            try Self.execute(db, operation, "UPDATE users SET administrator = ?, disabled = ? WHERE id = ?",
                             [user.isAdministrator, user.isDisabled, id.rawValue])
            return user
        }
    }

    /// The user as stored, after checking (in the write transaction) that the change leaves an
    /// enabled administrator. - Throws: `StoreError.unknownUser`, `.lastAdministrator`.
    @discardableResult
    static func keepAnAdministrator(_ db: Database, _ id: UserID, administrator: Bool?, disabled: Bool?) throws(StoreError) -> User {
        let found: User?
        let others: Int
        do {
            found = try Row.fetchOne(db, sql: "SELECT \(userColumns) FROM users WHERE id = ?", arguments: [id.rawValue]).map(user)
            others = try Int.fetchOne(db, sql: "SELECT count(*) FROM users WHERE administrator AND NOT disabled AND id <> ?",
                                      arguments: [id.rawValue]) ?? 0
        } catch {
            throw .database(operation: "reading a user", message: String(describing: error))
        }
        guard let user = found else { throw .unknownUser(id) }
        let stays = (administrator ?? user.isAdministrator) && !(disabled ?? user.isDisabled)
        if user.isAdministrator, !user.isDisabled, !stays, others == 0 { throw .lastAdministrator(id) }
        return user
    }
}
