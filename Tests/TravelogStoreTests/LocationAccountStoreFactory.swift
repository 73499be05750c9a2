import Testing
import TravelogStore

/// A backend for the suites of `LocationStore` and `AccountStore` (`StoreFactory.locationAndAccount`):
/// every `StoreFactory`, and the PostgreSQL store when a server is at hand (`PostgresTestServer`),
/// which keeps only locations and accounts so far.
struct LocationAccountStoreFactory: CustomTestStringConvertible, Sendable {
    let name: String
    /// A new, empty store each call.
    let make: @Sendable () async throws -> any LocationStore & AccountStore

    var testDescription: String { name }
}
