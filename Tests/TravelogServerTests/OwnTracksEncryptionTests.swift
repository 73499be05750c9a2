import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogStore
@testable import TravelogServer

@Suite("OwnTracks encrypted payloads")
struct OwnTracksEncryptionTests {
    static let secret = "correct horse battery staple"
    static let plaintext = #"{"_type":"location","tid":"AL","tst":1700000000,"lat":52.52,"lon":13.405,"acc":8,"batt":77}"#
    /// `plaintext` sealed by PyNaCl (Debian's python3-nacl) as the apps seal it: `SecretBox(secret
    /// zero-padded to 32 bytes).encrypt(plaintext, nonce=bytes(range(24)))`, base64.
    static let sealedByPyNaCl = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXDMwAepKzWSoZAbKRFWxe5t8X6ZwUGAIHI7mBMXOpg7XfhE5Y28cAblBlxZkLgLNz"
        + "anVw6aJjmK0aKFF3WJQQz6/VwkzUoCuAWJGwx9ZkMiB8ajDvZDIK6wuXdV6jd7Hb8eyp2XQAFbNNh5A="
    /// `{"_type":"location","tst":1700000100,"lat":1.5,"lon":2.5}` sealed by PyNaCl with the first 32
    /// bytes of `longSecret` as the key and a nonce of 24 sevens.
    static let longSecret = "0123456789abcdef0123456789abcdefEXTRA"
    static let sealedWithLongSecret = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHVunQEnMu5zCMSXMocGNUOqnt+BRIDtCMUOoP9/eHIdrvJWNIJBwKRBWdTxLl4Ov8KJthxDqx"
        + "uH7GzSC1r0S2lPmmjvigc/A5Nw=="

    static func envelope(_ data: String) -> String { #"{"_type":"encrypted","data":"\#(data)"}"# }

    @Test("a message PyNaCl sealed as the app does opens with the secret the user typed")
    func opensPyNaClMessage() throws {
        let opened = try #require(OwnTracksEncryption.decrypt(Self.sealedByPyNaCl, secret: Self.secret))
        #expect(String(decoding: opened, as: UTF8.self) == Self.plaintext)
    }

    @Test("the key is the secret's bytes in 32 zero bytes: a longer secret counts by its first 32, as in the apps")
    func keyDerivation() throws {
        #expect(OwnTracksEncryption.key(secret: "ab") == [0x61, 0x62] + [UInt8](repeating: 0, count: 30))
        #expect(OwnTracksEncryption.key(secret: Self.longSecret) == Array(Self.longSecret.utf8.prefix(32)))
        let opened = try #require(OwnTracksEncryption.decrypt(Self.sealedWithLongSecret, secret: Self.longSecret))
        #expect(String(decoding: opened, as: UTF8.self) == #"{"_type":"location","tst":1700000100,"lat":1.5,"lon":2.5}"#)
    }

    @Test("a wrong secret, a changed byte, a cut box and text that is not base64 stay closed", arguments: [
        (sealedByPyNaCl, "correct horse battery stapler"),
        (String(sealedByPyNaCl.dropLast(8)) + "AAAAAAA=", secret),
        (String(sealedByPyNaCl.prefix(40)), secret),
        ("TestCipherText", secret),
        ("", secret),
    ])
    func staysClosed(data: String, secret: String) {
        #expect(OwnTracksEncryption.decrypt(data, secret: secret) == nil)
    }

    @Test("sealing and opening give the message back, each time under a new nonce")
    func roundTrip() throws {
        let first = OwnTracksEncryption.encrypt(Array(Self.plaintext.utf8), secret: "s")
        let second = OwnTracksEncryption.encrypt(Array(Self.plaintext.utf8), secret: "s")
        #expect(first != second)
        #expect(OwnTracksEncryption.decrypt(first, secret: "s") == Array(Self.plaintext.utf8))
    }

    @Test("only a body that is one encrypted message is taken for one")
    func detectsEnvelope() {
        #expect(OwnTracksEncryption.encryptedData(in: Array(Self.envelope("abc").utf8)) == "abc")
        #expect(OwnTracksEncryption.encryptedData(in: Array(Self.plaintext.utf8)) == nil)
        #expect(OwnTracksEncryption.encryptedData(in: Array(#"[{"_type":"encrypted","data":"abc"}]"#.utf8)) == nil)
        #expect(OwnTracksEncryption.encryptedData(in: Array(#"{"_type":"location","note":"encrypted"}"#.utf8)) == nil)
    }

    @Test("over HTTP: an encrypted location is stored once the device's secret is set; without it, or with a wrong one, it is set aside saying why")
    func httpRoute() async throws {
        let fixture = try await ServerFixture.make()
        let secrets = try #require(fixture.app.store as? any OwnTracksSecretStore)
        let post = { @Sendable (body: String) in
            try await fixture.test { client in
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                         body: ByteBuffer(body)) { response in
                    #expect(response.status == .ok)
                }
            }
        }
        try await post(Self.envelope(Self.sealedByPyNaCl))
        try await secrets.setOwnTracksSecret("not the one", deviceID: fixture.adaPhone.id)
        // Another message (the same one again would be a retry: set aside once).
        try await post(Self.envelope(OwnTracksEncryption.encrypt(Array(Self.plaintext.utf8), secret: Self.secret)))
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        let reasons = try await fixture.app.store.rejectedItems(userID: fixture.ada.id, limit: 10).map(\.reason)
        #expect(reasons.contains("message: cannot decrypt: wrong secret?"))
        #expect(reasons.contains { $0.hasPrefix("message: cannot decrypt: no OwnTracks secret is set for device 'phone'") })

        try await secrets.setOwnTracksSecret(Self.secret, deviceID: fixture.adaPhone.id)
        try await post(Self.envelope(Self.sealedByPyNaCl))
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id, deviceIDs: [fixture.adaPhone.id]))
        #expect(stored.map(\.location.timestamp.timeIntervalSince1970) == [1_700_000_000])
        #expect(stored.first?.location.coordinate.latitude == 52.52)
        #expect(try await secrets.ownTracksSecret(deviceID: fixture.adaPhone.id) == Self.secret)
    }
}
