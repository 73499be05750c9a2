import Foundation
import Testing
@testable import TravelogServer

@Suite("Tile server availability for snapshots")
struct TileServerAvailabilityTests {
    @Test("the tile server is asked until a fetch fails, then left alone for a minute, then asked again")
    func pause() {
        let availability = TileServerAvailability()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(availability.shouldAsk(now: start))
        availability.failed(now: start)
        #expect(!availability.shouldAsk(now: start.addingTimeInterval(1)))
        #expect(!availability.shouldAsk(now: start.addingTimeInterval(TileServerAvailability.pauseSeconds - 1)))
        #expect(availability.shouldAsk(now: start.addingTimeInterval(TileServerAvailability.pauseSeconds)))
    }
}
