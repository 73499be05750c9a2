import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogSQLite
import TravelogAccounts
import TravelogServer
import TravelogStore
import TravelogTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A server on a fresh SQLite database with two users, each with a password and a device token:
/// ada (device "phone") and bob (device "pixel").
struct ServerFixture: Sendable {
    static let adaPassword = "ada-password-1"
    static let bobPassword = "bob-password-2"

    let app: TravelogServerApp
    let ada: User
    let bob: User
    let adaPhone: Device
    let bobPixel: Device
    let adaToken: String
    let bobToken: String

    /// A gazetteer of two places: Berlin and Tokyo.
    static func gazetteer() throws -> Gazetteer {
        let germany = try GazetteerCountry(code: "DE", alpha3Code: "DEU", name: "Germany")
        let japan = try GazetteerCountry(code: "JP", alpha3Code: "JPN", name: "Japan")
        let places = [
            GazetteerPlace(name: "Berlin", asciiName: "Berlin", administrativeArea: "Berlin", subAdministrativeArea: "",
                           country: germany, timeZoneIdentifier: "Europe/Berlin", population: 3_426_354,
                           coordinate: Coordinate(validLatitude: 52.52437, longitude: 13.41053)!),
            GazetteerPlace(name: "Tokyo", asciiName: "Tokyo", administrativeArea: "Tokyo", subAdministrativeArea: "",
                           country: japan, timeZoneIdentifier: "Asia/Tokyo", population: 8_336_599,
                           coordinate: Coordinate(validLatitude: 35.6895, longitude: 139.69171)!),
        ]
        return try Gazetteer(bytes: Gazetteer.encode(places), path: "test-gazetteer")
    }

    /// - Parameters:
    ///   - allowPrivateWebhooks: let notifications reach this machine's test receivers.
    ///   - configuration: bcrypt cost 4, bcrypt's least, keeps the suite fast; the server's default is 12.
    ///   - timeZones: the time-zone boundaries the server takes local days from (none: the nearest place's zone).
    ///   - withGazetteer: the fixture's two places (Berlin, Tokyo), or a server without a gazetteer.
    static func make(adaApp: DeviceApp? = nil, allowPrivateWebhooks: Bool = false,
                     configuration: ServerConfiguration? = nil, timeZones: TimeZoneBoundaries? = nil,
                     withGazetteer: Bool = true) async throws -> ServerFixture {
        let path = TestDirectory.url.appendingPathComponent("server-\(UUID().uuidString)/travelog.sqlite").path
        let store = try SQLiteLocationStore(path: path)
        let app = TravelogServerApp(store: store,
                                    configuration: configuration ?? ServerConfiguration(port: 0, bcryptCost: 4,
                                                                                       allowPrivateWebhooks: allowPrivateWebhooks),
                                    gazetteer: withGazetteer ? try gazetteer() : nil, timeZones: timeZones)
        let ada = try await app.accounts.addUser(named: "ada", password: adaPassword)
        let bob = try await app.accounts.addUser(named: "bob", password: bobPassword)
        // Read tokens: the suites read back what they stored with them (a phone's own token cannot).
        let (adaPhone, adaToken) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: adaApp, scope: .read)
        let (bobPixel, bobToken) = try await app.accounts.addDevice(named: "pixel", userID: bob.id, app: nil, scope: .read)
        return ServerFixture(app: app, ada: ada, bob: bob, adaPhone: adaPhone, bobPixel: bobPixel,
                             adaToken: adaToken, bobToken: bobToken)
    }

    /// Runs `test` against the router (no socket).
    func test<T>(_ setup: TestingSetup = .router, _ test: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        try await app.makeApplication().test(setup, test)
    }

    func storedCount(_ user: User) async throws -> Int {
        try await app.store.locations(LocationQuery(userID: user.id)).count
    }
}

enum Auth {
    static func basic(_ user: String, _ secret: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.authorization] = "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
        return headers
    }

    static func bearer(_ token: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        return headers
    }
}

extension ByteBuffer {
    init(_ text: String) { self.init(string: text) }
    var text: String { String(buffer: self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(readableBytesView)) }
}

extension HTTPFields {
    func adding(_ name: String, _ value: String) -> HTTPFields {
        var copy = self
        copy[HTTPField.Name(name)!] = value
        return copy
    }
}

/// An Overland batch of `count` points a second apart from `start`.
func overlandBatch(count: Int, start: Date = Date(timeIntervalSince1970: 1_700_000_000), latitude: Double = 52.5) -> String {
    let formatter = ISO8601DateFormatter()
    let features = (0..<count).map { index in
        let time = formatter.string(from: start.addingTimeInterval(Double(index)))
        return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(13.4 + Double(index) * 1e-5),\#(latitude)]},"properties":{"timestamp":"\#(time)","speed":1.2,"horizontal_accuracy":5,"altitude":40,"motion":["walking"],"battery_level":0.8,"wifi":"home","device_id":"iphone"}}"#
    }
    return #"{"locations":[\#(features.joined(separator: ","))]}"#
}

/// A TCP connection to 127.0.0.1:`port`, blocking; nil when nothing listens there. The caller closes it.
func loopbackConnection(port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}
