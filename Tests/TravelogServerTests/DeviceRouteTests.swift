import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TravelogCore
import TravelogServer
import TravelogStore

@Suite("Device management routes")
struct DeviceRouteTests {
    static func json(_ headers: HTTPFields) -> HTTPFields { headers.adding("Content-Type", "application/json") }
    static let ada = json(Auth.basic("ada", ServerFixture.adaPassword))

    /// Adds a device by the API: (id, token, the answer).
    static func add(_ client: some TestClientProtocol, name: String, app: String?) async throws -> (Int64, String, [String: Any]) {
        let body = app.map { #"{"name":"\#(name)","app":"\#($0)","url":"https://travelog.example.org"}"# }
            ?? #"{"name":"\#(name)","url":"https://travelog.example.org"}"#
        return try await client.execute(uri: "/api/v1/devices", method: .post, headers: Self.ada, body: ByteBuffer(body)) { response in
            #expect(response.status == .created, "\(response.body.text)")
            let answer = try #require(response.body.json as? [String: Any])
            let device = try #require(answer["device"] as? [String: Any])
            return (try #require(device["id"] as? Int64 ?? (device["id"] as? Int).map(Int64.init)), try #require(answer["token"] as? String), answer)
        }
    }

    static func devices(_ client: some TestClientProtocol) async throws -> [String: [String: Any]] {
        try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
            #expect(response.status == .ok)
            let list = try #require(response.body.json as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
        }
    }

    @Test("adding a device answers its token once, with each app's settings, setup link and QR code")
    func add() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let (_, token, answer) = try await Self.add(client, name: "iphone", app: "overland")
            let setup = try #require(answer["setup"] as? [[String: Any]])
            #expect(setup.count == 1, "only the device's app")
            let overland = try #require(setup.first)
            #expect(overland["app"] as? String == "overland")
            let link = try #require(overland["link"] as? String)
            #expect(link == "overland://setup?url=https%3A%2F%2Ftravelog.example.org%2Fapi%2Fv1%2Foverland&token=\(token)&device_id=iphone&unique_id=yes")
            #expect((overland["qrSVG"] as? String)?.hasPrefix("<svg") == true)
            // Every app when none is named.
            let (_, _, all) = try await Self.add(client, name: "spare", app: nil)
            #expect((all["setup"] as? [[String: Any]])?.compactMap { $0["app"] as? String } == ["owntracks", "overland", "traccar", "osmand", "gpslogger", "other"])
            // The settings again, without the token.
            let devices = try await Self.devices(client)
            let id = try #require(devices["iphone"]?["id"] as? Int)
            try await client.execute(uri: "/api/v1/devices/\(id)/setup", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .ok)
                #expect(!response.body.text.contains(token))
                #expect(response.body.text.contains("shown once when made"))
            }
        }
    }

    @Test("the list shows each device's last report, battery and app as the phone sent them")
    func status() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let (_, token, _) = try await Self.add(client, name: "iphone", app: "overland")
            var headers = Self.json(Auth.bearer(token))
            headers[.userAgent] = "Overland/2024.05 CFNetwork"
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: headers,
                                     body: ByteBuffer(overlandBatch(count: 3, start: Date().addingTimeInterval(-600)))) {
                #expect($0.status == .ok)
            }
            let osmand = "/api/v1/osmand?id=\(fixture.adaToken)&lat=52.5&lon=13.4&timestamp=\(Int(Date().timeIntervalSince1970) - 60)&batt=41&charge=true"
            try await client.execute(uri: osmand, method: .get) { #expect($0.status == .ok) }
            let (_, owntracksToken, _) = try await Self.add(client, name: "pixel", app: "owntracks")
            var owntracks = Self.json(Auth.basic("ada", owntracksToken))
            owntracks[.userAgent] = "Owntracks-Android/2.4.12"
            let message = #"{"_type":"location","lat":52.51,"lon":13.41,"tst":\#(Int(Date().timeIntervalSince1970) - 30),"batt":54,"bs":2}"#
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: owntracks, body: ByteBuffer(message)) {
                #expect($0.status == .ok)
            }
            let devices = try await Self.devices(client)
            let pixel = try #require(devices["pixel"]?["lastReport"] as? [String: Any])
            #expect(pixel["batteryPercent"] as? Double == 54)
            #expect(pixel["charging"] as? Bool == true)
            #expect(pixel["userAgent"] as? String == "Owntracks-Android/2.4.12")
            #expect(pixel["latitude"] as? Double == 52.51)
            let iphone = try #require(devices["iphone"]?["lastReport"] as? [String: Any])
            #expect(iphone["batteryPercent"] as? Double == 80)
            #expect(iphone["userAgent"] as? String == "Overland/2024.05 CFNetwork")
            #expect(iphone["latitude"] as? Double == 52.5)
            #expect(iphone["receivedAt"] as? String != nil)
            #expect(devices["iphone"]?["app"] as? String == "overland")
            #expect(devices["iphone"]?["locations"] as? Int == 3)
            let phone = try #require(devices["phone"]?["lastReport"] as? [String: Any])
            #expect(phone["batteryPercent"] as? Double == 41)
            #expect(phone["charging"] as? Bool == true)
            #expect(devices["phone"]?["silent"] as? Bool == false)
        }
    }

    @Test("rename, silence threshold, new token, removal keeping or deleting the history")
    func manage() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            let (id, token, _) = try await Self.add(client, name: "iphone", app: "overland")
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Self.json(Auth.bearer(token)),
                                     body: ByteBuffer(overlandBatch(count: 4))) { #expect($0.status == .ok) }
            // Rename; a taken name is a conflict; a threshold out of range is refused.
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .patch, headers: Self.ada,
                                     body: ByteBuffer(#"{"name":"ipad","silentAfterSeconds":21600}"#)) { response in
                #expect(response.status == .ok)
                let device = response.body.json as? [String: Any]
                #expect(device?["name"] as? String == "ipad")
                #expect(device?["silentAfterSeconds"] as? Int == 21600)
            }
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .patch, headers: Self.ada, body: ByteBuffer(#"{"name":"phone"}"#)) {
                #expect($0.status == .conflict)
            }
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .patch, headers: Self.ada,
                                     body: ByteBuffer(#"{"silentAfterSeconds":10}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .patch, headers: Self.ada,
                                     body: ByteBuffer(#"{"silentAfterSeconds":null}"#)) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["silentAfterSeconds"] == nil)
            }
            // Another user's device is not found; a device token manages nothing.
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .patch, headers: Self.json(Auth.basic("bob", ServerFixture.bobPassword)),
                                     body: ByteBuffer(#"{"name":"mine"}"#)) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .delete, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden)
            }
            // A new token: the old one stops working.
            let rotated = try await client.execute(uri: "/api/v1/devices/\(id)/token", method: .post, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                #expect(response.status == .ok)
                let answer = try #require(response.body.json as? [String: Any])
                #expect((answer["setup"] as? [[String: Any]])?.first?["link"] as? String != nil)
                return try #require(answer["token"] as? String)
            }
            #expect(rotated != token)
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Self.json(Auth.bearer(token)),
                                     body: ByteBuffer(overlandBatch(count: 1))) { #expect($0.status == .unauthorized) }
            // Removed, history kept: the token is refused, the locations stay under its name.
            try await client.execute(uri: "/api/v1/devices/\(id)?history=keep", method: .delete, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Self.json(Auth.bearer(rotated)),
                                     body: ByteBuffer(overlandBatch(count: 1))) { #expect($0.status == .unauthorized) }
            var devices = try await Self.devices(client)
            #expect(devices["ipad"]?["retiredAt"] as? String != nil)
            #expect(devices["ipad"]?["locations"] as? Int == 4)
            try await client.execute(uri: "/api/v1/devices/\(id)/token", method: .post, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .conflict, "a removed device takes no new token")
            }
            try await client.execute(uri: "/api/v1/devices/\(id)?history=maybe", method: .delete, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .badRequest)
            }
            // Deleted with its history.
            try await client.execute(uri: "/api/v1/devices/\(id)?history=delete", method: .delete, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .noContent)
            }
            devices = try await Self.devices(client)
            #expect(devices["ipad"] == nil)
            #expect(try await fixture.storedCount(fixture.ada) == 0)
            try await client.execute(uri: "/api/v1/devices/\(id)", method: .delete, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .notFound)
            }
        }
    }

    @Test("bad bodies are refused with a reason, and nothing is added")
    func refusals() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for body in [#"{"name":"x","app":"nokia"}"#, #"{"name":""}"#, #"{"app":"overland"}"#, #"{"name":"x","url":"ftp://h"}"#, "[1"] {
                try await client.execute(uri: "/api/v1/devices", method: .post, headers: Self.ada, body: ByteBuffer(body)) { response in
                    #expect(response.status == .badRequest, "\(body): \(response.status)")
                }
            }
            try await client.execute(uri: "/api/v1/devices", method: .post, headers: Self.ada, body: ByteBuffer(#"{"name":"phone"}"#)) {
                #expect($0.status == .conflict)
            }
            #expect(try await Self.devices(client).keys.sorted() == ["phone"])
        }
    }
}
