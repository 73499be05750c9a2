import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogFormats
import TravelogRender
@testable import TravelogServer
import TravelogStore

/// Issue 25, findings 4, 5, 8 and 9: what a route may cost is bounded by the stored data it
/// answers about, never by the size of the request alone. Each attack of the issue, as it was sent.
@Suite("a cost bound on every route")
struct RouteCostLimitTests {
    static func error(_ response: TestResponse) -> String {
        (response.body.json as? [String: Any])?["error"] as? String ?? ""
    }

    // MARK: Finding 4: snapshots

    @Test("a snapshot of 4096x4096 at scale 4 (4.3 GB, 30 s) is a 400 naming the pixel limit")
    func oversizeSnapshot() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/snapshot?size=4096x4096&scale=4&layer=heat", method: .get,
                                     headers: Auth.bearer(fixture.adaToken)) { response in
                #expect(response.status == .badRequest)
                #expect(Self.error(response).contains("at most 16777216"), "\(Self.error(response))")
            }
            try await client.execute(uri: "/api/v1/snapshot?size=2049x2048&scale=2", method: .get,
                                     headers: Auth.bearer(fixture.adaToken)) { #expect($0.status == .badRequest) }
        }
    }

    @Test("the largest snapshot allowed is 4096 × 4096 pixels, whatever the scale")
    func pixelLimit() throws {
        for (width, height, scale) in [(4096, 4096, 1.0), (2048, 2048, 2), (1024, 1024, 4), (1200, 800, 4)] {
            try MapSnapshotter.Options(widthPoints: width, heightPoints: height, pixelScale: scale).checkPixelCount()
        }
        #expect(throws: SnapshotParameterError.pixels(widthPixels: 4100, heightPixels: 4100)) {
            try MapSnapshotter.Options(widthPoints: 2050, heightPoints: 2050, pixelScale: 2).checkPixelCount()
        }
        #expect(throws: RenderError.tooManyPixels(widthPixels: 16384, heightPixels: 16384)) {
            _ = try MapSnapshotter(options: .init(widthPoints: 4096, heightPoints: 4096, pixelScale: 4))
                .plan(index: HistoryTileIndex(), filter: HistoryTileIndex.Filter())
        }
    }

    @Test("two renders run at once; a third waits its turn, or is refused when the line is full")
    func renderGate() async throws {
        let gate = RenderGate(maximumConcurrent: 2, pixelBudget: 100, maximumWaiting: 1, maximumWaitSeconds: 30)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let (started, starter) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask { () async throws -> Void in
                    try await gate.run(pixels: 10) {
                        starter.yield()
                        for await _ in release { break }
                    }
                }
            }
            var startedIterator = started.makeAsyncIterator()
            _ = await startedIterator.next()
            _ = await startedIterator.next()
            #expect(gate.runningCount == 2)
            // The third waits (the line holds one)…
            group.addTask { () async throws -> Void in try await gate.run(pixels: 10) { _ = starter.yield() } }
            try await Task.sleep(for: .milliseconds(100))
            #expect(gate.runningCount == 2)
            // …and a fourth finds the line full: refused at once.
            await #expect(throws: RenderGate.Refusal.busy) { try await gate.run(pixels: 10) {} }
            releaser.yield()
            releaser.yield()
            releaser.finish()
            _ = await startedIterator.next()
            try await group.waitForAll()
        }
        #expect(gate.runningCount == 0)
    }

    @Test("the largest render runs alone; a wait that runs out is a refusal")
    func renderGateBudget() async throws {
        let gate = RenderGate(maximumConcurrent: 2, pixelBudget: 100, maximumWaiting: 4, maximumWaitSeconds: 0.2)
        try await gate.run(pixels: 100) {
            await #expect(throws: RenderGate.Refusal.busy) { try await gate.run(pixels: 1) {} }
        }
        #expect(try await gate.run(pixels: 1) { 7 } == 7)
        #expect(gate.runningCount == 0)
    }

    @Test("a snapshot whose task is cancelled (its client gone) stops drawing")
    func cancelledSnapshot() async throws {
        let task = Task { () throws -> Snapshot in
            withUnsafeCurrentTask { $0?.cancel() }
            return try MapSnapshotter(options: .init(widthPoints: 300, heightPoints: 200, layer: .heat))
                .snapshot(index: HistoryTileIndex(), filter: HistoryTileIndex.Filter(), outlines: nil)
        }
        await #expect(throws: RenderError.cancelled) { try await task.value }
    }

    @Test("a busy render gate answers 503 with Retry-After")
    func busyAnswer() throws {
        let error = APIError.busy(retryAfterSeconds: 5, "busy")
        #expect(error.status == .serviceUnavailable)
        #expect(error.description == "busy")
    }

    // MARK: Finding 5: forward geocoding

    @Test("a q of 4,000 words (24 KB, 64 s) is a 400 naming the limit of 200 characters; 16 words are answered")
    func geocodingText() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.bearer(fixture.adaToken)
        try await fixture.test { client in
            let long = Array(repeating: "Berlin", count: 4_000).joined(separator: "%20")
            try await client.execute(uri: "/api/v1/geocode/forward?q=\(long)", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
                #expect(Self.error(response).contains("at most 200"), "\(Self.error(response))")
            }
            try await client.execute(uri: "/api/v1/geocode/forward?q=\(String(repeating: "a", count: 201))", method: .get,
                                     headers: auth) { #expect($0.status == .badRequest) }
            // The most words 200 characters hold.
            let hundred = Array(repeating: "a", count: 100).joined(separator: "%20")
            try await client.execute(uri: "/api/v1/geocode/forward?q=\(hundred)", method: .get, headers: auth) { #expect($0.status == .ok) }
            let sixteen = (["Berlin"] + Array(repeating: "Germany", count: 15)).joined(separator: "%20")
            try await client.execute(uri: "/api/v1/geocode/forward?q=\(sixteen)", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let places = try #require(response.body.json as? [[String: Any]])
                #expect(places.first?["name"] as? String == "Berlin")
            }
        }
    }

    // MARK: Finding 8: OwnTracks waypoints and regions

    static func waypoints(_ count: Int, tst: Int = 1_699_990_000) -> String {
        let items = (0..<count).map { index in
            #"{"_type":"waypoint","desc":"Spot \#(index)","lat":52.5,"lon":13.4,"rad":100,"tst":\#(tst)}"#
        }
        return #"{"_type":"waypoints","waypoints":["# + items.joined(separator: ",") + "]}"
    }

    @Test("5,000 waypoints in one OwnTracks post (117 s): the location is stored, 1,000 regions kept, the rest set aside")
    func manyWaypoints() async throws {
        let fixture = try await ServerFixture.make()
        let phone = Auth.basic("ada", fixture.adaToken)
        let body = "[\(OwnTracksRegionTests.location),\(Self.waypoints(5_000))]"
        try await fixture.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer(body)) { response in
                    #expect(response.status == .ok)
                }
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
        let store = fixture.app.store
        #expect(try await store.regions(userID: fixture.ada.id).count == StoredRegion.maximumPerUser)
        // One rejected item per waypoint refused, kept once although the phone sent them twice.
        #expect(try await store.rejectedItemCount(userID: fixture.ada.id) == 4_000)
        let item = try #require(try await store.rejectedItems(userID: fixture.ada.id, limit: 1).first)
        #expect(item.route == "owntracks")
        #expect(item.reason.contains("at most 1000 regions"), "\(item.reason)")
        #expect(item.raw.contains("Spot "))
    }

    @Test("regions sharing a creation second are offered with distinct seconds, in order")
    func waypointSeconds() throws {
        let circle = try Circle(center: Coordinate(validLatitude: 52.5, longitude: 13.4)!, radiusMeters: 100)
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let regions = try (0..<3_000).map { index in
            StoredRegion(id: RegionID(rawValue: Int64(index + 1)), userID: UserID(rawValue: 1),
                         definition: try RegionDefinition(name: "r\(index)", shape: .circle(circle)),
                         createdAt: index == 2_999 ? created.addingTimeInterval(10) : created, updatedAt: created)
        }
        let seconds = OwnTracksRegionSync.waypoints(regions).map { Int64($0.createdAt.timeIntervalSince1970) }
        // The last wanted a second ten after the others, taken by then: it gets the next free one.
        let expected: [Int64] = (0..<3_000).map { 1_700_000_000 + Int64($0) }
        #expect(seconds == expected)
    }

    @Test("a region beyond the user's 1,000 is a 409 naming the limit")
    func regionLimit() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let circle = try Circle(center: Coordinate(validLatitude: 52.5, longitude: 13.4)!, radiusMeters: 100)
        for index in 0..<StoredRegion.maximumPerUser {
            _ = try await store.addRegion(try RegionDefinition(name: "r\(index)", shape: .circle(circle)), userID: fixture.ada.id, at: Date())
        }
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/regions", method: .post, headers: Auth.basic("ada", ServerFixture.adaPassword),
                                     body: ByteBuffer(RegionRouteTests.home)) { response in
                #expect(response.status == .conflict)
                #expect(Self.error(response).contains("at most 1000 regions"), "\(Self.error(response))")
            }
            // Another user is not affected.
            _ = try await RegionRouteTests.create(client, Auth.basic("bob", ServerFixture.bobPassword), RegionRouteTests.home)
        }
    }

    // MARK: Finding 9: lists of ids, repeated parameters

    @Test("a merge of 150,001 ids (78 s) is a 400 naming the limit; repeated ids count once")
    func mergeIDs() async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let ids = try await JournalRouteTests.postMorning(client, fixture).compactMap { $0["id"] as? Int }
            try #require(ids.count >= 2)
            let attack = "[\(ids[0])" + String(repeating: ",\(ids[1])", count: 150_000) + "]"
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: auth,
                                     body: ByteBuffer(#"{"ids":\#(attack)}"#)) { response in
                #expect(response.status == .badRequest)
                #expect(Self.error(response).contains("at most 100 ids"), "\(Self.error(response))")
            }
            let repeated = "[\(ids[0]),\(ids[1]),\(ids[1]),\(ids[0])]"
            try await client.execute(uri: "/api/v1/visits/merge", method: .post, headers: auth,
                                     body: ByteBuffer(#"{"ids":\#(repeated)}"#)) { #expect($0.status == .ok) }
        }
    }

    @Test("a device named twice is one device (it crashed the locations route, and made the path's work per name)",
          arguments: ["/api/v1/locations", "/api/v1/path", "/api/v1/stats"])
    func repeatedDevice(route: String) async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(JournalRouteTests.morningBody())) { #expect($0.status == .ok) }
            let names = Array(repeating: "phone", count: 2_000).joined(separator: ",")
            try await client.execute(uri: "\(route)?device=phone&device=\(names)", method: .get,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword)) { #expect($0.status == .ok) }
        }
    }
}
