import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogServer
import TravelogTestSupport

@Suite("The journal under uploads in flight together")
struct JournalConcurrentUploadTests {
    /// The morning of `JournalRouteTests.morning` (home, a walk, work, a walk, home; a fix a
    /// minute) as Overland batches of `size` fixes.
    static func morningBatches(size: Int) -> [String] {
        let features = JournalRouteTests.morning().map { fix in
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(fix.longitude),\#(fix.latitude)]},"properties":{"timestamp":"\#(fix.time)","horizontal_accuracy":8,"speed":0}}"#
        }
        return stride(from: 0, to: features.count, by: size).map { first in
            #"{"locations":["# + features[first..<min(features.count, first + size)].joined(separator: ",") + "]}"
        }
    }

    static func visits(_ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> [String] {
        try await client.execute(uri: "/api/v1/visits", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            let entries = try #require(response.body.json as? [[String: Any]])
            return entries.map { "\($0["arrival"] as? String ?? "?")…\($0["departure"] as? String ?? "now") \($0["place"] as? String ?? "?")" }
        }
    }

    @Test("batches posted four at a time, in order (seed 0) or shuffled, give the journal a full re-processing gives",
          arguments: [UInt64(0), 1, 2, 3])
    func concurrentBatches(seed: UInt64) async throws {
        let fixture = try await ServerFixture.make()
        let auth = Auth.basic("ada", ServerFixture.adaPassword)
        var random = SplitMix64(seed: seed)
        var batches = Self.morningBatches(size: 20)
        if seed > 0 {
            for index in batches.indices.reversed() { batches.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        }
        let shuffled = batches
        try await fixture.test(.router) { client in
            for group in stride(from: 0, to: shuffled.count, by: 4) {
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    for body in shuffled[group..<min(shuffled.count, group + 4)] {
                        tasks.addTask {
                            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                                     body: ByteBuffer(string: body)) { #expect($0.status == .ok) }
                        }
                    }
                    try await tasks.waitForAll()
                }
            }
            let found = try await Self.visits(client, auth)
            #expect(found.count == 3, "home, work, home: \(found)")
            try await client.execute(uri: "/api/v1/journal/process", method: .post, headers: auth) { #expect($0.status == .ok) }
            let again = try await Self.visits(client, auth)
            #expect(found == again)
        }
    }
}
