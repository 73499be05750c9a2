import Foundation
import HummingbirdTesting
import Testing
import TravelogAccounts
import TravelogCore
import TravelogPostgres
import TravelogServer
import TravelogStore

/// `SeveralDevicesTests` on PostgreSQL: the fused track, the fused entries and the trips read the
/// same from either store.
@Suite("One person, several devices on PostgreSQL")
struct PostgresSeveralDevicesTests {
    /// A server on a schema of its own, with the user ada.
    static func app() async throws -> (TravelogServerApp, UserID) {
        let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let app = TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                                    configuration: ServerConfiguration(port: 0, bcryptCost: 4), gazetteer: nil)
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        return (app, ada.id)
    }

    @Test("the project's own day imported under two device names: one import's distance, path, entries and trips",
          .enabled(if: PostgresLiveFeedTests.server != nil,
                   "TRAVELOG_TEST_POSTGRES_URL is not set: several devices on PostgreSQL were not tested"))
    func ownFixtureTwice() async throws {
        let (once, onceUser) = try await Self.app()
        let (twice, twiceUser) = try await Self.app()
        let (one, _) = try await SeveralDevices.expectSameAsOneImport(
            [SeveralDevices.ownFixture], once: once, onceUser: onceUser, twice: twice, twiceUser: twiceUser)
        #expect(one.totalMeters > 18_000)
        // The same figures as on SQLite.
        let sqlite = try await ServerFixture.make(withGazetteer: false)
        try await SeveralDevices.importFiles([SeveralDevices.ownFixture], as: "phone", app: sqlite.app, userID: sqlite.ada.id)
        let reference = try await sqlite.test { try await SeveralDevices.figures($0) }
        #expect(abs(reference.totalMeters - one.totalMeters) <= 0.01)
        #expect(reference.entries.count == one.entries.count && reference.trips.count == one.trips.count)
    }

    @Test("a parent's and a child's phones on different trips: both count",
          .enabled(if: PostgresLiveFeedTests.server != nil,
                   "TRAVELOG_TEST_POSTGRES_URL is not set: several devices on PostgreSQL were not tested"))
    func parentAndChild() async throws {
        let start = Date(timeIntervalSince1970: 1_750_140_000)
        let home = Coordinate(validLatitude: 53.8631, longitude: 10.7009)!
        let (app, user) = try await Self.app()
        try await SeveralDevices.store(GeneratedDay.commute(from: home, bearing: 90, start: start, seed: 1), as: "phone",
                                       app: app, userID: user)
        try await SeveralDevices.store(GeneratedDay.commute(from: home.destination(bearingDegrees: 200, distanceMeters: 3_000),
                                                            bearing: 0, start: start, seed: 2), as: "child", app: app, userID: user)
        let figures = try await app.makeApplication().test(.router) { try await SeveralDevices.figures($0) }
        #expect(figures.totalMeters > 40_000, "two commutes of 24 km")
        #expect(Set(figures.trips.compactMap { $0["device"] as? String }) == ["phone", "child"])
    }
}
