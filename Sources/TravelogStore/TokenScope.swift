/// What a device token may do. Every token writes its own device's locations (and, for OwnTracks,
/// reads the latest positions of the user's other devices, which the app shows as friends);
/// reading the history takes the password, the page's session, or a token with `read` scope.
/// Tokens made before scopes existed are `write` tokens.
public enum TokenScope: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Writes its device's locations only: the token pasted into a phone app.
    case write
    /// Also reads the user's history, journal and statistics (a script, a dashboard).
    case read

    public var description: String { rawValue }
}
