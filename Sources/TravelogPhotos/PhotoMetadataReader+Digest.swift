import Crypto
import Foundation

extension PhotoMetadataReader {
    /// SHA-256 over the whole file, lower-case hexadecimal (swift-crypto). Alone in this file so the
    /// fuzzer (Fuzz/, which builds without the network) can put a stand-in beside the reader.
    static func contentDigest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
