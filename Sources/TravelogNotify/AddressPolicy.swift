#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which addresses webhooks and ntfy pushes may go to. Unless the operator allows private
/// addresses (`--allow-private-webhooks`, for a home network), only public unicast addresses are
/// reached: never loopback, private (RFC 1918, unique local), shared (CGNAT), link-local (where
/// cloud metadata services answer, 169.254.169.254), unspecified, multicast, documentation or
/// reserved ones, nor an IPv4 address wrapped in IPv6 (mapped, compatible, NAT64).
///
/// The check runs on every address a name resolves to at send time, and the request goes to the
/// address that was checked, so a name that changes its answer (DNS rebinding) gains nothing.
/// Sources: RFC 6890 (special-purpose address registries), RFC 6052 (NAT64), RFC 4291.
public struct AddressPolicy: Sendable, Equatable {
    /// Whether loopback, private and link-local addresses may be reached.
    public var allowsPrivateAddresses: Bool

    public init(allowsPrivateAddresses: Bool) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
    }

    /// Public addresses only: the default.
    public static let publicOnly = AddressPolicy(allowsPrivateAddresses: false)
    /// Any address (`--allow-private-webhooks`).
    public static let privateAllowed = AddressPolicy(allowsPrivateAddresses: true)

    /// Whether `bytes` (4 for IPv4, 16 for IPv6, network order) may be reached.
    public func permits(_ bytes: [UInt8]) -> Bool {
        allowsPrivateAddresses || Self.isPublic(bytes)
    }

    /// Whether a URL's host may be named at all: `localhost` and its subdomains, and literal
    /// addresses (in any form `inet_aton` reads: `0x7f000001`, `2130706433`, `0177.0.0.1`) that
    /// are not public, are refused before anything is resolved. Other names are checked when sent.
    public func permits(host: String) -> Bool {
        if allowsPrivateAddresses { return true }
        let name = host.lowercased().trimmingDots
        if name == "localhost" || name.hasSuffix(".localhost") { return false }
        if let bytes = Self.literalAddress(host) { return Self.isPublic(bytes) }
        return true
    }

    /// The address a URL's host spells literally (IPv4 in any `inet_aton` form, or IPv6, with or
    /// without brackets), network order; `nil` for a name.
    public static func literalAddress(_ host: String) -> [UInt8]? {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_aton(text, &v4) != 0 {
            return withUnsafeBytes(of: v4.s_addr) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: v6) { Array($0) }
        }
        return nil
    }

    /// Whether an address is public unicast (see the type's summary).
    public static func isPublic(_ bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4: return isPublicIPv4(bytes)
        case 16: return isPublicIPv6(bytes)
        default: return false
        }
    }

    private static func isPublicIPv4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1], b[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return false            // this network, private, loopback
        case (100, 64...127, _): return false                             // shared address space (CGNAT)
        case (169, 254, _): return false                                  // link-local, cloud metadata
        case (172, 16...31, _), (192, 168, _): return false              // private
        case (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113): return false // IETF, documentation
        case (198, 18...19, _): return false                              // benchmarking
        case (224..., _, _): return false                                 // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublicIPv6(_ b: [UInt8]) -> Bool {
        let embedded = Array(b[12..<16])
        if b[0..<10].allSatisfy({ $0 == 0 }) {
            // ::ffff:a.b.c.d (mapped) is its IPv4 address; ::, ::1 and the deprecated ::a.b.c.d
            // (compatible) are never public.
            return b[10] == 0xFF && b[11] == 0xFF && isPublicIPv4(embedded)
        }
        if Array(b[0..<12]) == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublicIPv4(embedded) } // NAT64
        if b[0] & 0xFE == 0xFC { return false }                           // unique local (fc00::/7, AWS fd00:ec2::254)
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 || b[1] & 0xC0 == 0xC0 { return false } // link-local, site-local
        if b[0] == 0xFF { return false }                                  // multicast
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false } // documentation
        if b[0] == 0x01, b[1] == 0, b[2] == 0, b[3] == 0, b[4..<8].allSatisfy({ $0 == 0 }) { return false } // discard
        return true
    }
}

extension String {
    /// The name without a trailing dot (`localhost.` is `localhost`).
    fileprivate var trimmingDots: String {
        var name = Substring(self)
        while name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }
}
