import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogServer
import TravelogStore
import TravelogTestSupport

/// `DELETE /api/v1/account`: a person deletes their own account with the password again (and a code
/// with two-factor login on); their rows go (UserDeletionTests checks every table), their files under
/// the data folder go, and their session, device token and password are refused at the next request.
@Suite("Deleting one's own account")
struct AccountDeletionTests {
    static let uri = "/api/v1/account"

    static func json(_ headers: HTTPFields) -> HTTPFields { headers.adding("Content-Type", "application/json") }

    static func body(_ password: String, code: String? = nil) -> ByteBuffer {
        ByteBuffer(string: code.map { #"{"password":"\#(password)","code":"\#($0)"}"# } ?? #"{"password":"\#(password)"}"#)
    }

    /// Every file under `folder`, relative to it.
    static func files(under folder: URL) -> Set<String> {
        var files = Set<String>()
        let root = folder.standardizedFileURL.path
        if let walker = FileManager.default.enumerator(atPath: root) {
            while let path = walker.nextObject() as? String {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue { files.insert(path) }
            }
        }
        return files
    }

    /// A photo record of the user with this digest, its original uploaded into `folder`'s originals, and its thumbnails.
    static func photo(_ digest: String, of user: User, in data: URL, store: any PhotoStore) async throws {
        let originals = data.appendingPathComponent("photos/originals/\(user.id.rawValue)", isDirectory: true)
        let thumbnails = data.appendingPathComponent("photos/thumbnails/\(digest.prefix(2))", isDirectory: true)
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        let original = originals.appendingPathComponent("\(digest).jpg")
        try Data("jpeg".utf8).write(to: original)
        for size in ["small", "large"] { try Data("jpeg".utf8).write(to: thumbnails.appendingPathComponent("\(digest)-\(size).jpg")) }
        _ = try await store.addPhoto(PhotoRecord(digest: digest, path: original.path, uploaded: true, mimeType: "image/jpeg", byteCount: 4,
                                                 positionSource: .unplaced, addedAt: Date()), userID: user.id)
    }

    @Test("a person deletes their account: the password again, a code with two-factor login on; their files go, the other user's stay, and their session, token and password are refused at once")
    func deleteOwnAccount() async throws {
        let data = TestDirectory.makeFolder("account-deletion")
        var configuration = ServerConfiguration(port: 0, bcryptCost: 4, historyIndexDirectory: data.appendingPathComponent("history-index"))
        configuration.photoDirectory = data.appendingPathComponent("photos")
        let fixture = try await ServerFixture.make(configuration: configuration)
        let store = try #require(fixture.app.store as? any PhotoStore)
        // Bob's files: a saved map index and a temporary one a crash left, two uploaded photos, one of
        // them a photo ada has too (its thumbnails are kept by content, so they stay).
        let index = data.appendingPathComponent("history-index", isDirectory: true)
        try FileManager.default.createDirectory(at: index, withIntermediateDirectories: true)
        for name in ["user-\(fixture.bob.id.rawValue).index", "user-\(fixture.bob.id.rawValue).index.partial-42",
                     "user-\(fixture.ada.id.rawValue).index"] {
            try Data("index".utf8).write(to: index.appendingPathComponent(name))
        }
        try await Self.photo("b0b0only", of: fixture.bob, in: data, store: store)
        try await Self.photo("5a4ed000", of: fixture.bob, in: data, store: store)
        try await Self.photo("5a4ed000", of: fixture.ada, in: data, store: store)
        try await Self.photo("ada00000", of: fixture.ada, in: data, store: store)
        let setup = try await fixture.app.accounts.beginTwoFactor(for: fixture.bob)
        try await fixture.app.accounts.confirmTwoFactor(for: fixture.bob, code: try TwoFactorTests.code(setup.secret), from: nil)
        let session = try await fixture.app.accounts.startSession(userID: fixture.bob.id)
        let cookie = Self.json(["Cookie": "travelog_session=\(session)", "Sec-Fetch-Site": "same-origin"].fields)
        let filesBefore = Self.files(under: data)

        try await fixture.test { client in
            // Not with a device token (read scope), nor without credentials, nor with a wrong password or without the code.
            try await client.execute(uri: Self.uri, method: .delete, headers: Self.json(Auth.bearer(fixture.bobToken)),
                                     body: Self.body(ServerFixture.bobPassword)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: Self.uri, method: .delete, headers: Self.json([:]),
                                     body: Self.body(ServerFixture.bobPassword)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: Self.uri, method: .delete, headers: cookie, body: Self.body("wrong-password")) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: Self.uri, method: .delete, headers: cookie, body: Self.body(ServerFixture.bobPassword)) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains(#""secondFactor":"totp""#))
            }
            try await client.execute(uri: Self.uri, method: .delete, headers: cookie, body: Self.body(ServerFixture.bobPassword, code: "000000")) {
                #expect($0.status == .forbidden)
            }
            #expect(try await fixture.app.store.user(id: fixture.bob.id) != nil, "nothing deleted by a refused request")
            // (The server may be saving a user's index meanwhile: its temporary file comes and goes.)
            #expect(Self.files(under: data).filter { !$0.hasPrefix("history-index/") } == filesBefore.filter { !$0.hasPrefix("history-index/") })

            // A recovery code (the app's code of this step was spent turning two-factor login on).
            try await client.execute(uri: Self.uri, method: .delete, headers: cookie,
                                     body: Self.body(ServerFixture.bobPassword, code: setup.recoveryCodes[0])) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("travelog_session=;") || $0.hasPrefix("travelog_session=\"\"") })
            }
            // The next request with the session, the device token or the password is a 401.
            try await client.execute(uri: "/api/v1/session", method: .get, headers: cookie) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/v1/locations", method: .get, headers: Auth.bearer(fixture.bobToken)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .ok)
            }
        }
        #expect(try await fixture.app.store.user(id: fixture.bob.id) == nil)
        // Every file under the data folder: none of bob's is left, all of ada's are there.
        let bob = fixture.bob.id.rawValue, ada = fixture.ada.id.rawValue
        let left = Self.files(under: data)
        #expect(left.filter { $0.contains("user-\(bob).") || $0.hasPrefix("photos/originals/\(bob)/") || $0.contains("b0b0only") } == [])
        #expect(left.isSuperset(of: [
            "history-index/user-\(ada).index", "photos/originals/\(ada)/5a4ed000.jpg", "photos/originals/\(ada)/ada00000.jpg",
            "photos/thumbnails/5a/5a4ed000-small.jpg", "photos/thumbnails/ad/ada00000-large.jpg",
        ]))
        #expect(filesBefore.subtracting(left).count == 6, "bob's two index files, two originals and two thumbnails of his own photo go")
    }

    @Test("GET /api/v1/account/export answers the person's account archive as a zip attachment; a device token gets a 403")
    func export() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Self.json(Auth.bearer(fixture.bobToken)),
                                     body: ByteBuffer(#"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"}]"#)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/account/export", method: .get, headers: Auth.bearer(fixture.bobToken)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/account/export", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/zip")
                #expect(response.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"travelog-bob-") == true)
                let path = TestDirectory.makeFolder("account-export").appendingPathComponent("bob.zip").path
                try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: path))
                #expect(AccountArchive.isAccountArchive(path: path))
                let archive = try ZipArchive(path: path)
                #expect(archive.entries.contains { $0.name == "locations/device-\(fixture.bobPixel.id.rawValue).csv" })
                #expect(!archive.entries.contains { $0.name.contains("sessions") })
            }
            // With the photos' files asked for (bob has none): the same archive, its manifest saying none is missing.
            try await client.execute(uri: "/api/v1/account/export?photos=true", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "application/zip")
                let path = TestDirectory.makeFolder("account-export-photos").appendingPathComponent("bob.zip").path
                try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: path))
                let archive = try ZipArchive(path: path)
                var reader = LineReader(source: try archive.contents(of: try #require(archive.entry(named: "manifest.json"))))
                var manifest = ""
                while let line = try reader.next() { manifest += String(decoding: line.bytes, as: UTF8.self) }
                #expect(manifest.contains("\"photoFilesMissing\" : ["), "\(manifest.prefix(300))")
            }
            try await client.execute(uri: "/api/v1/account/export?photos=1", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .badRequest)
            }
        }
    }

    @Test("without a password, a sign-in of the last ten minutes confirms the deletion (someone who signs in through a provider has none); an older sign-in, a session from before Travelog kept the time, and a Basic login do not")
    func recentSignInConfirms() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) // whole, as the store keeps milliseconds
        /// A session of bob's that signed in `startedAt` (nil: before Travelog kept it), and its request headers.
        func session(startedAt: Date?) async throws -> (secret: String, headers: HTTPFields) {
            let secret = "session-\(UUID().uuidString)"
            try await store.addSession(digest: Secrets.digest(secret), SessionRecord(userID: fixture.bob.id, expiresAt: now.addingTimeInterval(86_400),
                                                                                     startedAt: startedAt))
            return (secret, Self.json(["Cookie": "travelog_session=\(secret)", "Sec-Fetch-Site": "same-origin"].fields))
        }
        let old = try await session(startedAt: now.addingTimeInterval(-AccountService.confirmingSignInSeconds - 5))
        let legacy = try await session(startedAt: nil)
        let recent = try await session(startedAt: now.addingTimeInterval(-60))
        try await fixture.test { client in
            for refused in [old.headers, legacy.headers] {
                for body in ["{}", #"{"password":""}"#, #"{"password":null}"#] {
                    try await client.execute(uri: Self.uri, method: .delete, headers: refused, body: ByteBuffer(string: body)) { response in
                        #expect(response.status == .forbidden)
                        #expect(String(buffer: response.body).contains("sign in again"))
                    }
                }
                try await client.execute(uri: "/api/v1/session", method: .get, headers: refused) { response in
                    #expect(response.status == .ok)
                    #expect(!String(buffer: response.body).contains("signInConfirmsUntil"))
                }
            }
            try await client.execute(uri: Self.uri, method: .delete, headers: Self.json(Auth.basic("bob", ServerFixture.bobPassword)),
                                     body: ByteBuffer(string: "{}")) { #expect($0.status == .forbidden) }
            #expect(try await store.user(id: fixture.bob.id) != nil, "nothing deleted by a refused request")
            // The page reads until when the sign-in confirms: ten minutes after it.
            try await client.execute(uri: "/api/v1/session", method: .get, headers: recent.headers) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                let until = ISO8601TimeFormatter.string(now.addingTimeInterval(-60 + AccountService.confirmingSignInSeconds))
                #expect(body.contains(#""signInConfirmsUntil":"\#(until)""#), "\(body)")
                #expect(body.contains(#""signedInAt":""#))
            }
            try await client.execute(uri: Self.uri, method: .delete, headers: recent.headers, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/v1/session", method: .get, headers: old.headers) { #expect($0.status == .unauthorized) }
        }
        #expect(try await store.user(id: fixture.bob.id) == nil)
    }

    @Test("the last administrator cannot delete their account (409), and nothing of theirs goes")
    func lastAdministrator() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: Self.uri, method: .delete, headers: Self.json(Auth.basic("ada", ServerFixture.adaPassword)),
                                     body: Self.body(ServerFixture.adaPassword)) { #expect($0.status == .conflict) }
        }
        #expect(try await fixture.app.store.user(id: fixture.ada.id) != nil)
    }
}

private extension Dictionary where Key == String, Value == String {
    var fields: HTTPFields {
        var fields = HTTPFields()
        for (name, value) in self { fields[HTTPField.Name(name)!] = value }
        return fields
    }
}
