#if canImport(Glibc)
import Glibc
#endif

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes: `memchr` for its first byte, `memcmp` for the rest (a
    /// payload is searched for a few words per message, and the generic `firstRange(of:)` took a
    /// fifth of the MQTT subscriber's time).
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard count >= needle.count else { return false }
        return withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress, let wanted = needle.baseAddress else { return false }
                let last = haystack.count - needle.count
                var offset = 0
                while offset <= last {
                    guard let found = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                    let at = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + at, wanted, needle.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }
}
