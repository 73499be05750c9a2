import Foundation
import Testing
import TravelogTestSupport

/// What the plan test makes the PostgreSQL store do: every conformance test of the store suites,
/// run on stores of the plan test's own server, so that every query the store runs for them is
/// recorded by `pg_stat_statements`. A conformance test missing here would leave its queries
/// unchecked: `missing()` finds them in the suites' sources, and the plan test fails naming them.
enum PostgresQueryWorkload {
    typealias Run = @Sendable (StoreFactory) async throws -> Void

    /// The conformance tests by suite (the suite's file name) and function name.
    static let runs: [String: [String: Run]] = [
        "AccountStoreConformanceTests": [
            "userNames": { try await AccountStoreConformanceTests().userNames(factory: $0) },
            "deviceNames": { try await AccountStoreConformanceTests().deviceNames(factory: $0) },
            "passwordHashes": { try await AccountStoreConformanceTests().passwordHashes(factory: $0) },
            "tokens": { try await AccountStoreConformanceTests().tokens(factory: $0) },
            "apps": { try await AccountStoreConformanceTests().apps(factory: $0) },
            "sessions": { try await AccountStoreConformanceTests().sessions(factory: $0) },
        ],
        "JournalStoreConformanceTests": [
            "replaceReports": { try await JournalStoreConformanceTests().replaceReports(factory: $0) },
            "assignPlaces": { try await JournalStoreConformanceTests().assignPlaces(factory: $0) },
            "decisionsSurvive": { try await JournalStoreConformanceTests().decisionsSurvive(factory: $0) },
            "rangesAndPlaces": { try await JournalStoreConformanceTests().rangesAndPlaces(factory: $0) },
            "places": { try await JournalStoreConformanceTests().places(factory: $0) },
        ],
        "LocationStoreConformanceTests": [
            "roundTrip": { try await LocationStoreConformanceTests().roundTrip(factory: $0) },
            "idempotent": { try await LocationStoreConformanceTests().idempotent(factory: $0) },
            "largeBatch": { try await LocationStoreConformanceTests().largeBatch(factory: $0) },
            "atomicBatch": { try await LocationStoreConformanceTests().atomicBatch(factory: $0) },
            "discardedImport": { try await LocationStoreConformanceTests().discardedImport(factory: $0) },
            "deletedImport": { try await LocationStoreConformanceTests().deletedImport(factory: $0) },
            "finishUnknownImport": { try await LocationStoreConformanceTests().finishUnknownImport(factory: $0) },
            "reimport": { try await LocationStoreConformanceTests().reimport(factory: $0) },
        ],
        "NotificationStoreConformanceTests": [
            "oncePerKey": { try await NotificationStoreConformanceTests().oncePerKey(factory: $0) },
            "claims": { try await NotificationStoreConformanceTests().claims(factory: $0) },
            "scope": { try await NotificationStoreConformanceTests().scope(factory: $0) },
        ],
        "QuarantineStoreConformanceTests": [
            "keptOnce": { try await QuarantineStoreConformanceTests().keptOnce(factory: $0) },
            "perUser": { try await QuarantineStoreConformanceTests().perUser(factory: $0) },
            "deletedComesBack": { try await QuarantineStoreConformanceTests().deletedComesBack(factory: $0) },
        ],
        "RegionStoreConformanceTests": [
            "roundTrip": { try await RegionStoreConformanceTests().roundTrip(factory: $0) },
            "scoping": { try await RegionStoreConformanceTests().scoping(factory: $0) },
            "transitionsOnce": { try await RegionStoreConformanceTests().transitionsOnce(factory: $0) },
            "checkpoints": { try await RegionStoreConformanceTests().checkpoints(factory: $0) },
            "discardedImport": { try await RegionStoreConformanceTests().discardedImport(factory: $0) },
            "deletedImport": { try await RegionStoreConformanceTests().deletedImport(factory: $0) },
            "offered": { try await RegionStoreConformanceTests().offered(factory: $0) },
        ],
        "FriendStoreConformanceTests": [
            "inviteAndAccept": { try await FriendStoreConformanceTests().inviteAndAccept(factory: $0) },
            "grantAndEnd": { try await FriendStoreConformanceTests().grantAndEnd(factory: $0) },
        ],
        "LocationStoreQueryTests": [
            "timeRange": { try await LocationStoreQueryTests().timeRange(factory: $0) },
            "area": { try await LocationStoreQueryTests().area(factory: $0) },
            "scopedToUser": { try await LocationStoreQueryTests().scopedToUser(factory: $0) },
            "batches": { try await LocationStoreQueryTests().batches(factory: $0) },
            "summary": { try await LocationStoreQueryTests().summary(factory: $0) },
        ],
    ]

    /// Runs every conformance test on stores `factory` makes.
    static func run(_ factory: StoreFactory) async throws {
        for (_, tests) in runs.sorted(by: { $0.key < $1.key }) {
            for (_, test) in tests.sorted(by: { $0.key < $1.key }) { try await test(factory) }
        }
    }

    /// The store-parameterised tests (`func name(factory: StoreFactory)`) of the suites' sources
    /// that `runs` leaves out, as `Suite.name`.
    static func missing() throws -> [String] {
        let folder = SharedFixtures.repositoryRoot.appendingPathComponent("Tests/TravelogStoreTests")
        var missing: [String] = []
        for (suite, tests) in runs {
            let source = try String(contentsOf: folder.appendingPathComponent("\(suite).swift"), encoding: .utf8)
            for match in source.matches(of: #/func ([A-Za-z0-9_]+)\(factory: StoreFactory\)/#) {
                let name = String(match.output.1)
                if tests[name] == nil { missing.append("\(suite).\(name)") }
            }
        }
        return missing.sorted()
    }
}
