/// A word a person put on one of their fixes: what OwnTracks' "Publish with POI" names (`poi`), a
/// tag the iOS app sets (`tag`), or a waypoint's name in a GPX (or other) file. The fix itself says
/// where and when; the label says what the person called it.
public struct LocationLabel: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// OwnTracks `poi`: a place the person named as they published it.
        case pointOfInterest = "poi"
        /// OwnTracks `tag`.
        case tag
        /// A named waypoint of a file (GPX `<wpt><name>`).
        case waypoint
    }

    public var kind: Kind
    public var text: String

    /// The longest label kept, in characters; a longer one is cut there (with "…").
    public static let maximumLength = 200

    /// Leading and trailing white space is dropped, control characters become spaces, and a label
    /// longer than `maximumLength` is shortened; `nil` when nothing is left.
    public init?(kind: Kind, text: String) {
        var cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        cleaned = String(cleaned.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !cleaned.isEmpty else { return nil }
        if cleaned.count > Self.maximumLength { cleaned = String(cleaned.prefix(Self.maximumLength - 1)) + "…" }
        self.kind = kind
        self.text = cleaned
    }
}
