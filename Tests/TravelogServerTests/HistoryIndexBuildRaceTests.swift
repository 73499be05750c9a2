import Foundation
import Logging
import Synchronization
import Testing
import TravelogCore
import TravelogRender
import TravelogStore
@testable import TravelogServer

/// A change the index cannot follow (a deletion, a fix before its device's last) made while the
/// index is being built: the build read the rows before it, so it must not be installed as current
/// (issue 30: a deletion made during a build was lost, the map kept showing the deleted fixes).
@Suite("The history index and changes made while it is built")
struct HistoryIndexBuildRaceTests {
    /// Holds the first build after it read the store, until `open`; later builds pass.
    final class Gate: Sendable {
        private let state = Mutex<(reached: Bool, open: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, false, nil))

        func pass() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    state.reached = true
                    if state.open { return true }
                    state.waiting = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        var reached: Bool { state.withLock { $0.reached } }

        func open() {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.open = true
                defer { state.waiting = nil }
                return state.waiting
            }?.resume()
        }
    }

    static func fixes(_ minutes: Range<Int>, device: DeviceID) -> [StoredLocation] {
        minutes.map { minute in
            StoredLocation(deviceID: device,
                           location: Location(coordinate: Coordinate(validLatitude: 60.17, longitude: 24.94 + Double(minute) * 0.0005)!,
                                              timestamp: Date(timeIntervalSince1970: 1_709_251_200 + Double(minute) * 60)),
                           source: .fileImport)
        }
    }

    @Test("fixes deleted, or an older fix stored, while the index is built: the build ends stale and the index is built again",
          arguments: ["deleted here", "deleted by another process", "an older fix"])
    func changeDuringBuild(change: String) async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        _ = try await store.insert(Self.fixes(100..<300, device: phone.id))
        let gate = Gate()
        var logger = Logger(label: "history-index-race")
        logger.logLevel = .error
        let tiles = HistoryTiles(store: store, logger: logger, builtHook: { await gate.pass() })
        if change == "deleted by another process" { tiles.removalsCounted([]) }  // the index is held: a user known to the tiles
        let counted = Task { try await tiles.withIndex(userID: ada.id) { $0.index.fixCount } }
        for _ in 0..<1_000 where !gate.reached { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(gate.reached, "the build did not reach its hook")
        let expected: Int
        switch change {
        case "an older fix":
            let older = Self.fixes(0..<1, device: phone.id)
            _ = try await store.insert(older)
            tiles.landed(older.map(\.location), device: phone)
            expected = 201
        default:
            let gone = try await store.locations(LocationQuery(userID: ada.id, limit: 50)).map(\.key)
            #expect(try await store.deleteLocations(gone, userID: ada.id) == 50)
            if change == "deleted here" { tiles.historyRemoved(userID: ada.id) } else { tiles.removalsCounted([ada.id]) }
            expected = 150
        }
        gate.open()
        #expect(try await counted.value == expected, "the index built before the change was kept as current")
        #expect(try await tiles.withIndex(userID: ada.id) { $0.index.fixCount } == expected)
    }
}
