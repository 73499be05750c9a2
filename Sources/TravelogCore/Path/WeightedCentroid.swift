/// The accuracy-weighted mean of a group of fixes (weights 1/accuracy²), kept as running sums.
///
/// Sums are taken relative to the first fix so that they stay small and exact enough however many
/// fixes are added.
struct WeightedCentroid: Sendable, Equatable {
    private let origin: SurfacePoint
    private var sumX = 0.0, sumY = 0.0, sumZ = 0.0
    /// Σ weight · |point − origin|², for the spread around the mean.
    private var sumSquares = 0.0
    private var sumWeight = 0.0
    private var sumWeightedTime = 0.0
    /// Number of fixes added.
    private(set) var count = 0
    /// Time of the first and of the latest fix, seconds since the reference date.
    let firstTime: Double
    private(set) var lastTime: Double

    init(_ fix: PathFix) {
        origin = fix.point
        firstTime = fix.time
        lastTime = fix.time
        add(fix)
    }

    mutating func add(_ fix: PathFix) {
        let weight = 1 / (fix.accuracyMeters * fix.accuracyMeters)
        let dx = fix.point.x - origin.x, dy = fix.point.y - origin.y, dz = fix.point.z - origin.z
        sumX += weight * dx
        sumY += weight * dy
        sumZ += weight * dz
        sumSquares += weight * (dx * dx + dy * dy + dz * dz)
        sumWeight += weight
        sumWeightedTime += weight * (fix.time - firstTime)
        count += 1
        lastTime = max(lastTime, fix.time)
    }

    /// Adds every fix of another centroid (as if they had been added here one by one).
    mutating func merge(_ other: WeightedCentroid) {
        // The other's squares are about its own origin: move them to this one's.
        let ox = other.origin.x - origin.x, oy = other.origin.y - origin.y, oz = other.origin.z - origin.z
        sumSquares += other.sumSquares + 2 * (ox * other.sumX + oy * other.sumY + oz * other.sumZ)
            + other.sumWeight * (ox * ox + oy * oy + oz * oz)
        sumX += other.sumX + other.sumWeight * (other.origin.x - origin.x)
        sumY += other.sumY + other.sumWeight * (other.origin.y - origin.y)
        sumZ += other.sumZ + other.sumWeight * (other.origin.z - origin.z)
        sumWeightedTime += other.sumWeightedTime + other.sumWeight * (other.firstTime - firstTime)
        sumWeight += other.sumWeight
        count += other.count
        lastTime = max(lastTime, other.lastTime)
    }

    /// The weighted mean position (a fraction of a millimetre below the surface for a cluster
    /// tens of metres wide).
    var point: SurfacePoint {
        SurfacePoint(x: origin.x + sumX / sumWeight, y: origin.y + sumY / sumWeight, z: origin.z + sumZ / sumWeight)
    }

    /// The weighted mean time, seconds since the reference date.
    var meanTime: Double { firstTime + sumWeightedTime / sumWeight }

    /// The accuracy of a typical member fix: the root of the harmonic mean of the squared
    /// accuracies, in metres (dominated by the good fixes).
    var typicalAccuracyMeters: Double { (Double(count) / sumWeight).squareRoot() }

    /// The weighted root-mean-square distance of the fixes from the mean, metres.
    var spreadMeters: Double {
        let mx = sumX / sumWeight, my = sumY / sumWeight, mz = sumZ / sumWeight
        return max(0, sumSquares / sumWeight - (mx * mx + my * my + mz * mz)).squareRoot()
    }

    /// The accuracy of the mean itself, in metres (shrinks as 1/√count).
    var meanAccuracyMeters: Double { (1 / sumWeight).squareRoot() }
}
