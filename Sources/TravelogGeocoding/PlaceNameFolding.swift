import Foundation

/// The one way Travelog compares place names: case, accents and punctuation do not matter.
///
/// Text is folded (case, diacritics and width removed, "ß" → "ss"), the few Latin letters
/// without a decomposition are spelled out ("ł" → "l", "ø" → "o", "æ" → "ae"), and anything but
/// letters and digits separates words: "Sant Julià de Lòria" and "SANT JULIA DE LORIA" give the
/// same words, and so do "Winston-Salem" and "winston salem".
public enum PlaceNameFolding {
    /// The folded words of `text`, in order.
    /// - Complexity: O(text length); plain ASCII takes a fast path without Foundation.
    public static func words(_ text: some StringProtocol) -> [String] {
        var words: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    current.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    current.unicodeScalars.append(Unicode.Scalar(byte + 32))
                default: flush()
                }
            }
        } else {
            let folded = String(text).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            for scalar in folded.unicodeScalars {
                if let spelled = spelledOut[scalar] {
                    current += spelled
                } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    current.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                } else {
                    flush()
                }
            }
        }
        flush()
        return words
    }

    /// The folded words of `text` joined by single spaces: the key under which names are compared.
    public static func key(_ text: some StringProtocol) -> String {
        words(text).joined(separator: " ")
    }

    /// Latin letters that folding leaves alone because Unicode gives them no decomposition.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t",
    ]
}
