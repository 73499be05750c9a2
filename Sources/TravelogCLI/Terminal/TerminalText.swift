import TravelogStore

/// Text that came from outside (a title, a place or device name, what a phone sent, a remote
/// server's answer) made safe to print on a terminal: every character a name may not hold
/// (`DisplayName`: control characters, line separators, bidirectional overrides) is shown as an
/// escape (`\n`, `\t`, `\u{1B}`) instead of acting on the terminal. Data stored before names were
/// checked is printed the same way.
enum TerminalText {
    static func escaped(_ text: some StringProtocol) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if DisplayName.isAllowed(scalar) {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default: output += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return output
    }
}
