#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read.
public enum XMLInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `open(2)` failed with `errorNumber` (errno).
    case cannotOpen(path: String, errorNumber: Int32)
    /// `read(2)` failed with `errorNumber` (errno).
    case readFailed(path: String, errorNumber: Int32)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let errorNumber): "cannot open \(path): \(String(cString: strerror(errorNumber)))"
        case .readFailed(let path, let errorNumber): "cannot read \(path): \(String(cString: strerror(errorNumber)))"
        }
    }
}
