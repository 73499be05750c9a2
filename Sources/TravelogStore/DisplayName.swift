/// The one rule for text that stands as a name (a journal entry's title, a place, a region, a
/// device, a user): it holds no character that moves a terminal's cursor, changes its state or
/// reorders what is shown. A name can then be printed by the CLI, logged, or shown on the page as
/// the person typed it, and cannot clear a screen, forge a line of output or be cut by a NUL.
///
/// What a person types is refused when it breaks the rule (a 400 naming the character); what an
/// app or a file sends is stripped (`stripped(_:)`), since a phone's data is never refused for a
/// name.
public enum DisplayName {
    /// Whether a scalar may stand in a name: not a control character (C0 with NUL, tab and line
    /// feed, DEL, C1), not a line or paragraph separator (U+2028, U+2029), not a bidirectional
    /// embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which reorder the text around them.
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: false
        default: true
        }
    }

    /// The first scalar of `text` a name may not hold, with its position (in characters from 0).
    public static func firstRefused(in text: String) -> (scalar: Unicode.Scalar, offset: Int)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() where !isAllowed(scalar) {
            return (scalar, offset)
        }
        return nil
    }

    /// `text` without the scalars a name may not hold (a tab or a line break becomes a space).
    public static func stripped(_ text: String) -> String {
        guard firstRefused(in: text) != nil else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isAllowed(scalar) {
                scalars.append(scalar)
            } else if scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar.value == 0x2028 || scalar.value == 0x2029 {
                scalars.append(" ")
            }
        }
        return String(scalars)
    }

    /// Why `text` is refused as a name, or nil: `"U+001B at character 3"`.
    public static func refusal(of text: String) -> String? {
        firstRefused(in: text).map { refused in
            let hex = String(refused.scalar.value, radix: 16, uppercase: true)
            return "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) at character \(refused.offset + 1)"
        }
    }
}
