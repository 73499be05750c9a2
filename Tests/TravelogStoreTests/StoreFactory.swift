import Testing
import Foundation
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// Every backend the conformance suite runs against.
struct StoreFactory: CustomTestStringConvertible, Sendable {
    let name: String
    let make: @Sendable () throws -> any TravelogStore

    var testDescription: String { name }

    static let all: [StoreFactory] = [
        StoreFactory(name: "in-memory") { InMemoryLocationStore() },
        StoreFactory(name: "SQLite") { try SQLiteLocationStore(path: temporaryDatabasePath()) },
    ]

    static func temporaryDatabasePath() -> String {
        TestDirectory.url
            .appendingPathComponent("store-\(UUID().uuidString)")
            .appendingPathComponent("travelog.sqlite").path
    }
}
