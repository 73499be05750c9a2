/// The ways a history is drawn on tiles.
public enum HistoryLayer: String, CaseIterable, Sendable {
    /// The travelled path, a line in each device's colour, as wide as a road at the zoom.
    case path
    /// The density of fixes (``HeatmapRenderer``).
    case heat
    /// Every fix as a dot (merged into one per pixel where they cannot be told apart).
    case points
}
