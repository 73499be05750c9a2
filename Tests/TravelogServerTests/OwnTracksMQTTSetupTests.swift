import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogStore
@testable import TravelogServer

/// OwnTracks in MQTT mode: the settings and the `.otrc` inline link a phone is set up with, and the
/// device's encryption secret on the API.
@Suite("OwnTracks MQTT mode: setup and encryption secret")
struct OwnTracksMQTTSetupTests {
    /// The configuration an `owntracks:///config?inline=` link carries.
    static func configuration(_ link: String) throws -> [String: Any] {
        let prefix = "owntracks:///config?inline="
        #expect(link.hasPrefix(prefix))
        let base64 = try #require(String(link.dropFirst(prefix.count)).removingPercentEncoding)
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the MQTT setup names the broker, the account, the topic and the key; its link configures mode 0")
    func settingsAndLink() throws {
        let broker = try MQTTBrokerAddress(url: "mqtts://broker.example.org:8884")
        let setup = try #require(AppSetup.instructions(baseURL: "https://travelog.example.org", user: "ada", device: "phone",
                                                       token: nil, app: .owntracksMQTT, broker: broker, ownTracksSecret: "s3cret").first)
        #expect(setup.app == .owntracksMQTT)
        let settings = Dictionary(uniqueKeysWithValues: setup.settings)
        #expect(settings["Mode"] == "MQTT")
        #expect(settings["Host"] == "broker.example.org")
        #expect(settings["Port"] == "8884")
        #expect(settings["TLS"] == "on")
        #expect(settings["Username"] == "ada")
        #expect(settings["Device ID"] == "phone")
        #expect(settings["Topic"] == "owntracks/ada/phone")
        #expect(settings["Encryption key"] == "s3cret")
        let configuration = try Self.configuration(try #require(setup.link))
        #expect(configuration["_type"] as? String == "configuration")
        #expect(configuration["mode"] as? Int == 0)
        #expect(configuration["host"] as? String == "broker.example.org")
        #expect(configuration["port"] as? Int == 8884)
        #expect(configuration["tls"] as? Bool == true)
        #expect(configuration["username"] as? String == "ada")
        #expect(configuration["deviceId"] as? String == "phone")
        #expect(configuration["tid"] as? String == "PH")
        #expect(configuration["encryptionKey"] as? String == "s3cret")
        #expect(configuration["cmd"] as? Bool == true)
        #expect(configuration["password"] == nil, "the broker's password is not Travelog's to give")
        // Without a secret, no key; without a broker, a placeholder and no link.
        let plain = try #require(AppSetup.instructions(baseURL: "https://t.example", user: "ada", device: "phone", token: nil,
                                                       app: .owntracksMQTT, broker: broker).first)
        #expect(try Self.configuration(try #require(plain.link))["encryptionKey"] == nil)
        let unknown = try #require(AppSetup.instructions(baseURL: "https://t.example", user: "ada", device: "phone", token: nil,
                                                         app: .owntracksMQTT).first)
        #expect(unknown.link == nil)
        #expect(Dictionary(uniqueKeysWithValues: unknown.settings)["Host"] == AppSetup.brokerPlaceholder)
    }

    @Test("broker addresses: mqtt and mqtts with their default ports; users, paths and other schemes refused")
    func brokerAddress() throws {
        #expect(try MQTTBrokerAddress(url: "mqtt://b.example") == MQTTBrokerAddress(host: "b.example", port: 1883, useTLS: false))
        #expect(try MQTTBrokerAddress(url: "mqtts://b.example") == MQTTBrokerAddress(host: "b.example", port: 8883, useTLS: true))
        for bad in ["https://b.example", "mqtts://ada:pw@b.example", "mqtts://b.example/x", "mqtts://", "mqtts://b.example:70000"] {
            #expect(throws: MQTTBrokerAddressError.self, "\(bad)") { try MQTTBrokerAddress(url: bad) }
        }
        #expect(MQTTBrokerAddress.guessed(fromServerURL: "https://t.example:8443") == MQTTBrokerAddress(host: "t.example", port: 8883, useTLS: true))
    }

    @Test("PUT and DELETE …/owntracks-secret set and clear the secret; the setup carries it; other apps, tokens and users cannot")
    func secretRoutes() async throws {
        let fixture = try await ServerFixture.make(adaApp: .owntracksMQTT)
        let secrets = try #require(fixture.app.store as? any OwnTracksSecretStore)
        let person = Auth.basic("ada", ServerFixture.adaPassword).adding("Content-Type", "application/json")
        let id = fixture.adaPhone.id.rawValue
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/devices/\(id)/owntracks-secret", method: .put, headers: person,
                                     body: ByteBuffer(string: #"{"secret":"correct horse"}"#)) { response in
                #expect(response.status == .ok, "\(response.body.text)")
                let device = try #require(response.body.json as? [String: Any])
                #expect(device["ownTracksSecretSet"] as? Bool == true)
                #expect(device["app"] as? String == "owntracks-mqtt")
            }
            #expect(try await secrets.ownTracksSecret(deviceID: fixture.adaPhone.id) == "correct horse")
            try await client.execute(uri: "/api/v1/devices/\(id)/setup", method: .get, headers: person) { response in
                #expect(response.status == .ok)
                let setup = try #require(response.body.json as? [[String: Any]])
                #expect(setup.map { $0["app"] as? String } == ["owntracks-mqtt"])
                let settings = try #require(setup.first?["settings"] as? [[String]])
                #expect(settings.contains(["Encryption key", "correct horse"]))
            }
            for (body, status) in [(#"{"secret":""}"#, HTTPResponse.Status.badRequest), (#"{"secret":"two\nlines"}"#, .badRequest),
                                   (#"{}"#, .badRequest)] {
                try await client.execute(uri: "/api/v1/devices/\(id)/owntracks-secret", method: .put, headers: person,
                                         body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(body)")
                }
            }
            // A device token, and another user, cannot.
            try await client.execute(uri: "/api/v1/devices/\(id)/owntracks-secret", method: .delete,
                                     headers: Auth.basic("ada", fixture.adaToken)) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/devices/\(id)/owntracks-secret", method: .delete,
                                     headers: Auth.basic("bob", ServerFixture.bobPassword)) { response in
                #expect(response.status == .notFound)
            }
            #expect(try await secrets.ownTracksSecret(deviceID: fixture.adaPhone.id) == "correct horse")
            try await client.execute(uri: "/api/v1/devices/\(id)/owntracks-secret", method: .delete, headers: person) { response in
                #expect(response.status == .ok)
                #expect((response.body.json as? [String: Any])?["ownTracksSecretSet"] as? Bool == false)
            }
            #expect(try await secrets.ownTracksSecret(deviceID: fixture.adaPhone.id) == nil)
            // An Overland device has no OwnTracks secret.
            let overland = try await fixture.app.accounts.addDevice(named: "iphone", userID: fixture.ada.id, app: .overland).device
            try await client.execute(uri: "/api/v1/devices/\(overland.id.rawValue)/owntracks-secret", method: .put, headers: person,
                                     body: ByteBuffer(string: #"{"secret":"x"}"#)) { response in
                #expect(response.status == .conflict)
            }
        }
    }
}
