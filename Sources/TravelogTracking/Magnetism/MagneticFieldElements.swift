import Foundation

/// The magnetic field at one place and time, in the geodetic frame (north, east, down).
///
/// Names follow the WMM report: X north, Y east, Z down (nT); H horizontal intensity, F total
/// intensity (nT); I inclination (dip) and D declination (degrees, east positive).
public struct MagneticFieldElements: Hashable, Sendable {
    /// Northward component, in nanotesla.
    public var northNanotesla: Double
    /// Eastward component, in nanotesla.
    public var eastNanotesla: Double
    /// Downward component, in nanotesla.
    public var downNanotesla: Double

    public init(northNanotesla: Double, eastNanotesla: Double, downNanotesla: Double) {
        self.northNanotesla = northNanotesla
        self.eastNanotesla = eastNanotesla
        self.downNanotesla = downNanotesla
    }

    /// Horizontal intensity H = √(X² + Y²), in nanotesla.
    public var horizontalNanotesla: Double { (northNanotesla * northNanotesla + eastNanotesla * eastNanotesla).squareRoot() }
    /// Total intensity F = √(H² + Z²), in nanotesla.
    public var totalNanotesla: Double { (horizontalNanotesla * horizontalNanotesla + downNanotesla * downNanotesla).squareRoot() }
    /// Declination D = atan2(Y, X): the angle from true north to magnetic north, in degrees,
    /// positive east. True heading = magnetic heading + D.
    public var declinationDegrees: Double { atan2(eastNanotesla, northNanotesla) * 180 / .pi }
    /// Inclination I = atan2(Z, H), in degrees, positive down.
    public var inclinationDegrees: Double { atan2(downNanotesla, horizontalNanotesla) * 180 / .pi }
}
