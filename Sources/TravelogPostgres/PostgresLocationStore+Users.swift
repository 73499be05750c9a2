import Foundation
import Logging
import PostgresNIO
import TravelogStore

extension PostgresLocationStore {
    public func setAdministrator(_ isAdministrator: Bool, userID: UserID) async throws(StoreError) -> User {
        try await changeUser("changing an administrator", userID, administrator: isAdministrator, disabled: nil)
    }

    public func setDisabled(_ isDisabled: Bool, userID: UserID) async throws(StoreError) -> User {
        try await changeUser("disabling a user", userID, administrator: nil, disabled: isDisabled)
    }

    public func deleteUser(id: UserID) async throws(StoreError) {
        // The tables without a key to users or devices (locations lost theirs in 004, journal
        // runners never had one) by hand; every other table's rows go with the user (ON DELETE CASCADE).
        try await transaction("deleting a user") { connection in
            try await Self.lockUsers(connection, logger: logger)
            try await Self.keepAnAdministrator(connection, id, administrator: false, disabled: true, logger: logger)
            try await connection.run("DELETE FROM locations WHERE user_id = \(id.rawValue)", logger: logger)
            try await connection.run("DELETE FROM journal_runners WHERE user_id = \(id.rawValue)", logger: logger)
            try await connection.run("DELETE FROM users WHERE id = \(id.rawValue)", logger: logger)
        }
    }

    private func changeUser(_ operation: String, _ id: UserID, administrator: Bool?, disabled: Bool?) async throws(StoreError) -> User {
        try await transaction(operation) { connection in
            try await Self.lockUsers(connection, logger: logger)
            let current = try await Self.keepAnAdministrator(connection, id, administrator: administrator, disabled: disabled, logger: logger)
            let rows = try await connection.run("""
                UPDATE users SET administrator = \(administrator ?? current.isAdministrator), disabled = \(disabled ?? current.isDisabled)
                WHERE id = \(id.rawValue) RETURNING \(unescaped: Self.userColumns)
                """, logger: logger).collect()
            return try Self.user(Self.decodeFirst(rows, operation))
        }
    }

    /// Takes the users table for this transaction against other writers (readers go on): the rules
    /// on administrators then hold against concurrent changes.
    static func lockUsers(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE", logger: logger)
    }

    /// The user as stored, after checking that the change leaves an enabled administrator.
    /// - Throws: `StoreError.unknownUser`, `.lastAdministrator`.
    @discardableResult
    static func keepAnAdministrator(_ connection: PostgresConnection, _ id: UserID, administrator: Bool?, disabled: Bool?,
                                    logger: Logger) async throws -> User {
        let rows = try await connection.run("SELECT \(unescaped: userColumns) FROM users WHERE id = \(id.rawValue)",
                                            logger: logger).collect()
        guard let row = rows.first else { throw StoreError.unknownUser(id) }
        let user = try Self.user(row)
        let stays = (administrator ?? user.isAdministrator) && !(disabled ?? user.isDisabled)
        if user.isAdministrator, !user.isDisabled, !stays {
            let others = try await connection.run("""
                SELECT count(*) FROM users WHERE administrator AND NOT disabled AND id <> \(id.rawValue)
                """, logger: logger).collect()
            let count: Int64 = try decode(others.first, as: Int64.self, "counting administrators")
            if count == 0 { throw StoreError.lastAdministrator(id) }
        }
        return user
    }

    /// The first row, or a `StoreError.database`.
    static func decodeFirst(_ rows: [PostgresRow], _ operation: String) throws(StoreError) -> PostgresRow {
        guard let row = rows.first else { throw .database(operation: operation, message: "the server returned no row") }
        return row
    }
}
