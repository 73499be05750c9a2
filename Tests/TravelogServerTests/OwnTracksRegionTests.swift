import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogServer
import TravelogStore

@Suite("OwnTracks and regions, both ways")
struct OwnTracksRegionTests {
    static let location = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1700000000,"tid":"ph","acc":8}"#

    static func commands(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(response.body.json as? [[String: Any]]).filter { $0["_type"] as? String == "cmd" }
    }

    @Test("a region made on the page is offered to the phone with setWaypoints once, and again when it changes")
    func offered() async throws {
        let fixture = try await ServerFixture.make()
        let person = Auth.basic("ada", ServerFixture.adaPassword)
        let phone = Auth.basic("ada", fixture.adaToken)
        try await fixture.test { client in
            // No regions yet: nothing to offer, the answer stays the friends list.
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer(Self.location)) {
                #expect($0.body.text == "[]")
            }
            let id = try await RegionRouteTests.create(client, person, RegionRouteTests.home)
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer(Self.location)) { response in
                let commands = try Self.commands(response)
                #expect(commands.count == 1)
                #expect(commands.first?["action"] as? String == "setWaypoints")
                let list = (commands.first?["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]]
                #expect(list?.count == 1)
                #expect(list?.first?["_type"] as? String == "waypoint")
                #expect(list?.first?["desc"] as? String == "Home")
                #expect(list?.first?["rad"] as? Int == 150)
                #expect(list?.first?["lat"] as? Double == 52.52)
                #expect(list?.first?["tst"] is Int)
            }
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer("")) { response in
                let commands = try Self.commands(response)
                #expect(commands.isEmpty)
            }
            let moved = #"{"name":"Home","circle":{"latitude":52.53,"longitude":13.405,"radiusMeters":200}}"#
            try await client.execute(uri: "/api/v1/regions/\(id)", method: .put, headers: person, body: ByteBuffer(moved)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer(Self.location)) { response in
                let list = (try Self.commands(response).first?["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]]
                #expect(list?.first?["rad"] as? Int == 200)
            }
        }
    }

    @Test("the phone's waypoints become regions and its transitions are stored once, as reported")
    func fromThePhone() async throws {
        let fixture = try await ServerFixture.make()
        let phone = Auth.basic("ada", fixture.adaToken)
        let waypoints = #"""
            {"_type":"waypoints","waypoints":[
              {"_type":"waypoint","desc":"School","lat":52.5,"lon":13.41,"rad":120,"tst":1699990000},
              {"_type":"waypoint","desc":"Desk","lat":52.51,"lon":13.42,"rad":0,"tst":1699990001,"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":7},
              {"_type":"waypoint","desc":"Dot","lat":52.51,"lon":13.42,"rad":0,"tst":1699990002}]}
            """#
        let transition = #"{"_type":"transition","wtst":1699990000,"tst":1700000300,"lat":52.5,"lon":13.41,"acc":12,"event":"enter","desc":"School","t":"c","tid":"ph"}"#
        let unknown = #"{"_type":"transition","wtst":1,"tst":1700000400,"lat":52.5,"lon":13.41,"acc":12,"event":"leave","desc":"Mars","t":"c","tid":"ph"}"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer(waypoints)) {
                #expect($0.status == .ok)
            }
            for body in ["[\(Self.location),\(transition)]", transition, unknown] {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: phone, body: ByteBuffer(body)) {
                    #expect($0.status == .ok)
                }
            }
        }
        let store = try #require(fixture.app.store as? any RegionStore)
        let regions = try await store.regions(userID: fixture.ada.id)
        #expect(regions.map(\.definition.name) == ["School", "Desk"])
        #expect(regions.first?.createdAt == Date(timeIntervalSince1970: 1_699_990_000))
        #expect(regions.last?.definition.beacon?.minor == 7)
        let transitions = try await store.transitions(userID: fixture.ada.id, regionID: nil, from: nil, to: nil)
        #expect(transitions.map(\.transition.source) == [.reported])
        #expect(transitions.first?.transition.kind == .entry)
        #expect(transitions.first?.transition.occurredAt == Date(timeIntervalSince1970: 1_700_000_300))
        #expect(transitions.first?.transition.horizontalAccuracyMeters == 12)
        // The location beside the transition was stored as usual.
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }
}
