/// The WGS84 ellipsoid: the one definition of the Earth's shape in Travelog.
///
/// Source: NIMA TR8350.2, "Department of Defense World Geodetic System 1984", 3rd edition.
public enum WGS84 {
    /// Equatorial radius `a`, in metres.
    public static let semiMajorAxisMeters: Double = 6_378_137
    /// Flattening `f = (a - b) / a`.
    public static let flattening: Double = 1 / 298.257223563
    /// Polar radius `b = a (1 - f)`, in metres.
    public static let semiMinorAxisMeters: Double = semiMajorAxisMeters * (1 - flattening)
    /// First eccentricity squared, `e² = f (2 - f)`.
    public static let eccentricitySquared: Double = flattening * (2 - flattening)
    /// Mean radius `R₁ = (2a + b) / 3`, in metres: the sphere used only by explicitly
    /// approximate formulas such as haversine.
    public static let meanRadiusMeters: Double = (2 * semiMajorAxisMeters + semiMinorAxisMeters) / 3
}
