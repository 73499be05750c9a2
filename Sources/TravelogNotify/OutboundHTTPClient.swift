import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP client notifications go out on: one POST per connection, under one total deadline
/// that covers resolving the name, connecting, TLS, sending and the answer's head (the body of the
/// answer is never read, so a slow body costs nothing). No redirect is followed and no
/// authentication challenge answered: a 3xx or a 401 is an answer like any other.
///
/// The name is resolved here, every address is checked against the `AddressPolicy`, and the
/// connection goes to the checked address (DNS rebinding gains nothing). Cancelling the caller
/// closes the connection at once, so a shutdown never waits on a delivery.
struct OutboundHTTPClient: Sendable {
    /// Resolves a name to addresses (blocking; run on NIO's thread pool). Tests point names
    /// wherever they like.
    typealias Resolver = @Sendable (_ host: String, _ port: Int) throws(OutboundError) -> [SocketAddress]

    /// What came back: the status and, for a redirect, where to.
    struct Answer: Sendable, Equatable {
        var status: Int
        var location: String?
    }

    let policy: AddressPolicy
    /// Seconds the whole exchange may take.
    let deadlineSeconds: Double
    let resolve: Resolver

    init(policy: AddressPolicy, deadlineSeconds: Double, resolve: @escaping Resolver = OutboundHTTPClient.systemResolver) {
        self.policy = policy
        self.deadlineSeconds = deadlineSeconds
        self.resolve = resolve
    }

    /// POSTs `body` to `url`. - Throws: why there was no answer.
    func post(_ url: URL, headers: [(String, String)], body: [UInt8]) async throws(OutboundError) -> Answer {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let named = url.host, !named.isEmpty
        else { throw .unsupportedURL(url.absoluteString) }
        let host = named.hasPrefix("[") && named.hasSuffix("]") ? String(named.dropFirst().dropLast()) : named
        guard policy.permits(host: host) else { throw .refusedAddress(host: host) }
        let tls = scheme == "https"
        let port = url.port ?? (tls ? 443 : 80)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let exchange = Exchange(promise: eventLoop.makePromise(of: Answer.self))
        let deadline = eventLoop.scheduleTask(in: .nanoseconds(Int64(deadlineSeconds * 1e9))) {
            exchange.finish(throwing: .deadlineExceeded(seconds: deadlineSeconds))
        }
        defer { deadline.cancel() }
        let resolve = self.resolve, policy = self.policy
        NIOThreadPool.singleton.submit { state in
            guard case .active = state else { return exchange.finish(throwing: .cancelled) }
            do throws(OutboundError) {
                let addresses = try resolve(host, port)
                guard !addresses.isEmpty else { throw .unresolvable(host: host) }
                guard let address = addresses.first(where: { policy.permits($0.addressBytes) }) else {
                    throw .refusedAddress(host: host)
                }
                exchange.connect(to: address, on: eventLoop, tls: tls, serverName: AddressPolicy.literalAddress(host) == nil ? host : nil,
                                 request: Self.head(url: url, host: host, port: port, tls: tls, headers: headers, length: body.count),
                                 body: body)
            } catch {
                exchange.finish(throwing: error)
            }
        }
        do {
            return try await withTaskCancellationHandler {
                try await exchange.promise.futureResult.get()
            } onCancel: {
                exchange.finish(throwing: .cancelled)
            }
        } catch let error as OutboundError {
            throw error
        } catch {
            throw .connectionFailed(String(describing: error))
        }
    }

    static func head(url: URL, host: String, port: Int, tls: Bool, headers: [(String, String)], length: Int) -> HTTPRequestHead {
        let path = url.path(percentEncoded: true)
        var target = path.isEmpty ? "/" : path
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target)
        let literal = host.contains(":") ? "[\(host)]" : host
        head.headers.add(name: "Host", value: port == (tls ? 443 : 80) ? literal : "\(literal):\(port)")
        head.headers.add(name: "User-Agent", value: "Travelog")
        head.headers.add(name: "Content-Length", value: String(length))
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        return head
    }

    /// `getaddrinfo`, TCP addresses of either family.
    static let systemResolver: Resolver = { host, port throws(OutboundError) in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw .unresolvable(host: host) }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let pointer = entry.pointee.ai_addr else { continue }
            switch entry.pointee.ai_family {
            case AF_INET:
                addresses.append(pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) })
            case AF_INET6:
                addresses.append(pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) })
            default: continue
            }
        }
        return addresses
    }

    /// The TLS context for https: the system's trust roots, certificates checked.
    static let tlsContext: Result<NIOSSLContext, any Error> = Result { try NIOSSLContext(configuration: .makeClientConfiguration()) }
}

extension SocketAddress {
    /// The address's bytes in network order (4 or 16); empty for a Unix socket.
    var addressBytes: [UInt8] {
        switch self {
        case .v4(let address): withUnsafeBytes(of: address.address.sin_addr) { Array($0) }
        case .v6(let address): withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
        case .unixDomainSocket: []
        }
    }
}
