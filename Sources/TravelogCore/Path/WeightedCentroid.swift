/// The accuracy-weighted mean of a group of fixes (weights 1/accuracy²), kept as running sums.
///
/// Sums are taken relative to the first fix so that they stay small and exact enough however many
/// fixes are added.
struct WeightedCentroid: Sendable {
    private let origin: SurfacePoint
    private var sumX = 0.0, sumY = 0.0, sumZ = 0.0
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
        sumX += weight * (fix.point.x - origin.x)
        sumY += weight * (fix.point.y - origin.y)
        sumZ += weight * (fix.point.z - origin.z)
        sumWeight += weight
        sumWeightedTime += weight * (fix.time - firstTime)
        count += 1
        lastTime = max(lastTime, fix.time)
    }

    /// Adds every fix of another centroid (as if they had been added here one by one).
    mutating func merge(_ other: WeightedCentroid) {
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

    /// The accuracy of the mean itself, in metres (shrinks as 1/√count).
    var meanAccuracyMeters: Double { (1 / sumWeight).squareRoot() }
}
