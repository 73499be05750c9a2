/// A fix as the jitter-robust distance sees it: where (on the ellipsoid), how well known, when.
struct PathFix: Sendable {
    var point: SurfacePoint
    /// The horizontal accuracy used for this fix, metres (the assumed default when unknown).
    var accuracyMeters: Double
    /// Seconds since the reference date.
    var time: Double
}
