import CSodium
import Foundation

/// OwnTracks' payload encryption (the app's "Encryption key" setting): a message is sent as
/// `{"_type":"encrypted","data":BASE64}`, where the data is a 24-byte nonce followed by
/// libsodium's `crypto_secretbox_easy` of the JSON message (XSalsa20-Poly1305: the 16-byte
/// authenticator, then the ciphertext). The key is the secret's UTF-8 bytes copied into 32 zero
/// bytes (cut at 32), as the apps derive it (owntracks/android `EncryptionProvider`, the Recorder).
enum OwnTracksEncryption {
    static let keyBytes = Int(crypto_secretbox_KEYBYTES)
    static let nonceBytes = Int(crypto_secretbox_NONCEBYTES)
    static let authenticatorBytes = Int(crypto_secretbox_MACBYTES)
    /// A body larger than this is not looked at for an `encrypted` message (a phone's is a few hundred bytes).
    static let maximumMessageBytes = 256 << 10

    /// `sodium_init` once per process (it is thread-safe, and cheap after the first call).
    private static let ready: Bool = sodium_init() >= 0

    /// The key the apps derive from the secret a user typed.
    static func key(secret: String) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: keyBytes)
        for (index, byte) in secret.utf8.prefix(keyBytes).enumerated() { key[index] = byte }
        return key
    }

    /// The `data` of a body that is one `encrypted` message; `nil` for anything else.
    static func encryptedData(in body: [UInt8]) -> String? {
        guard body.count <= maximumMessageBytes, body.count > 20,
              String(decoding: body.prefix(4096), as: UTF8.self).contains("encrypted"),
              let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              object["_type"] as? String == "encrypted" else { return nil }
        return object["data"] as? String ?? ""
    }

    /// The plaintext of an encrypted message's `data`; `nil` when it is not base64 of a nonce and a
    /// box, or the box does not open with this secret.
    static func decrypt(_ data: String, secret: String) -> [UInt8]? {
        guard ready, let sealed = Data(base64Encoded: data.trimmingCharacters(in: .whitespacesAndNewlines),
                                       options: .ignoreUnknownCharacters),
              sealed.count >= nonceBytes + authenticatorBytes else { return nil }
        let bytes = [UInt8](sealed)
        let nonce = Array(bytes[..<nonceBytes])
        let box = Array(bytes[nonceBytes...])
        var plaintext = [UInt8](repeating: 0, count: box.count - authenticatorBytes)
        let key = key(secret: secret)
        let opened = crypto_secretbox_open_easy(&plaintext, box, UInt64(box.count), nonce, key)
        return opened == 0 ? plaintext : nil
    }

    /// `data` for a message, as the apps write it (a random nonce): for tests, and for messages
    /// Travelog sends to encrypting phones.
    static func encrypt(_ plaintext: [UInt8], secret: String) -> String {
        precondition(ready, "libsodium could not be initialised")
        var nonce = [UInt8](repeating: 0, count: nonceBytes)
        randombytes_buf(&nonce, nonceBytes)
        var box = [UInt8](repeating: 0, count: plaintext.count + authenticatorBytes)
        _ = crypto_secretbox_easy(&box, plaintext, UInt64(plaintext.count), nonce, key(secret: secret))
        return Data(nonce + box).base64EncodedString()
    }
}
