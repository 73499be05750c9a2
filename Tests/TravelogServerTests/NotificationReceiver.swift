import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// A webhook and ntfy receiver on a free port of 127.0.0.1 (`/hook`, `/topic`; `/moved` redirects to `/hook`; `/private`
/// answers 401 with a Basic challenge): keeps every request
/// and answers 500 to the first `failures` of them, 200 after.
final class NotificationReceiver: Sendable {
    struct Received: Sendable {
        var path: String
        var headers: HTTPFields
        var body: Data

        func header(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { headers[$0] }
        }
    }

    let failures: Int
    private let received = Mutex<[Received]>([])
    private let arrivals: AsyncStream<Received>
    private let arrival: AsyncStream<Received>.Continuation

    init(failures: Int = 0) {
        self.failures = failures
        (arrivals, arrival) = AsyncStream.makeStream(of: Received.self)
    }

    /// Every request so far, in the order they came.
    var requests: [Received] { received.withLock { $0 } }

    /// Runs `body` while the receiver listens; `body` gets the port.
    func listening(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        for path in ["/hook", "/topic"] {
            router.post(RouterPath(path)) { request, _ -> Response in
                var request = request
                let bytes = try await request.collectBody(upTo: 1 << 20)
                let received = Received(path: path, headers: request.headers, body: Data(bytes.readableBytesView))
                let count = self.received.withLock { list in
                    list.append(received)
                    return list.count
                }
                self.arrival.yield(received)
                return Response(status: count <= self.failures ? .internalServerError : .ok)
            }
        }
        // A webhook that moved: 308 to /hook.
        router.post("/moved") { _, _ -> Response in
            self.received.withLock { $0.append(Received(path: "/moved", headers: [:], body: Data())) }
            return Response(status: .permanentRedirect, headers: [.location: "/hook"])
        }
        // A webhook behind a password: 401 with a Basic challenge (it once hung the sender).
        router.post("/private") { _, _ -> Response in
            self.received.withLock { $0.append(Received(path: "/private", headers: [:], body: Data())) }
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: #"Basic realm="hooks""#])
        }
        let application = Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            try await body(try #require(client.port))
        }
    }

    /// The next request, or `nil` when none came within `limitSeconds` (a guard against a hung
    /// test, not a measurement).
    func nextArrival(limitSeconds: Int = 60) async -> Received? {
        let arrivals = self.arrivals
        return await withTaskGroup(of: Received?.self) { group in
            group.addTask {
                var iterator = arrivals.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(limitSeconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
