import CCairo
import Foundation
import TravelogCore

/// A map point standing for `weight` fixes (a pre-simplified level merges nearby fixes into one).
public struct WeightedMapPoint: Hashable, Sendable {
    public var point: MapPoint
    public var weight: Double

    public init(point: MapPoint, weight: Double = 1) {
        self.point = point
        self.weight = weight
    }
}

/// Draws the density of fixes as a heatmap that reads well from the whole world down to a street.
///
/// Each fix adds its weight to the pixel it falls in; a Gaussian kernel spreads it (peak 1, so a
/// lone fix reaches density 1 at its pixel, and its spot shows out to ``radiusPoints``), and the
/// density maps to a colour ramp on a logarithmic scale that saturates at ``saturation(zoomLevel:)``
/// fixes: a line's fixes per pixel double with each zoom level out, so does the saturation, and
/// both a daily commute and a one-off trip stay visible at every zoom. The scale depends on the
/// zoom only, never on the image's content, so neighbouring tiles join without seams.
///
/// The Gaussian is the one kernel that is both separable (a pass along rows, then one along
/// columns) and round: a product of two one-dimensional biweights, say, draws every lone fix as a
/// rounded square. It runs out to twice the radius, where even a stay of 10⁵ merged fixes adds
/// less than the faintest colour, so no square edge shows around heavy points either.
///
/// Cost: O(fixes + pixels × radius), whatever the number of fixes per pixel.
public struct HeatmapRenderer {
    /// The projection of the canvas drawn on.
    public let projection: MapProjection
    /// The kernel's radius in display points.
    public var radiusPoints = 8.0

    public init(projection: MapProjection) {
        self.projection = projection
    }

    /// The radius of a lone fix's spot in image pixels (a whole number).
    public var radiusPixels: Int { max(1, Int((radiusPoints * projection.pixelScale).rounded())) }

    /// How far a fix's kernel reaches, image pixels: twice the spot's radius.
    public var reachPixels: Int { 2 * radiusPixels }

    /// The density below which nothing is painted.
    static let faintestDensity: Float = 0.02

    /// Fixes per pixel (after the kernel) at which the ramp reaches its hottest colour: 32 at zoom
    /// 18 (a street walked about ten times at a fix a second), twice as many
    /// per zoom level out.
    public static func saturation(zoomLevel: Double) -> Double {
        32 * exp2(max(0, 18 - zoomLevel))
    }

    /// Draws the points (those beyond the image by more than the radius add nothing).
    public func draw(_ points: [WeightedMapPoint], on canvas: Canvas) {
        let radius = reachPixels
        let width = canvas.widthPixels + 2 * radius, height = canvas.heightPixels + 2 * radius
        var density = [Float](repeating: 0, count: width * height)
        for point in points {
            let pixel = projection.point(for: point.point)
            let column = Int((pixel.x).rounded(.down)) + radius, row = Int((pixel.y).rounded(.down)) + radius
            guard column >= 0, column < width, row >= 0, row < height else { continue }
            density[row * width + column] += Float(point.weight)
        }
        let kernel = Self.kernel(spotRadius: radiusPixels)
        let blurred = Self.blur(density, width: width, height: height, kernel: kernel, radius: radius)
        paint(blurred, gridWidth: width, radius: radius, on: canvas)
    }

    /// The Gaussian exp(−i² / 2σ²) for i in [−2r, 2r], with σ such that a lone fix's density
    /// falls to ``faintestDensity`` at the spot radius r: σ = r / √(2 ln(1 / faintest)).
    static func kernel(spotRadius radius: Int) -> [Float] {
        let sigma = Float(radius) / (2 * log(1 / faintestDensity)).squareRoot()
        return (-2 * radius...2 * radius).map { offset in exp(-Float(offset * offset) / (2 * sigma * sigma)) }
    }

    /// Separable convolution: along rows, then along columns, into a grid the canvas's size.
    static func blur(_ grid: [Float], width: Int, height: Int, kernel: [Float], radius: Int) -> [Float] {
        var rows = [Float](repeating: 0, count: width * height)
        for row in 0..<height {
            // A cancelled task (its client gone) stops here; the snapshot then throws.
            if row & 255 == 0, Task.isCancelled { return [Float](repeating: 0, count: (width - 2 * radius) * (height - 2 * radius)) }
            let base = row * width
            for column in 0..<width where grid[base + column] != 0 {
                let value = grid[base + column]
                for offset in max(-radius, -column)...min(radius, width - 1 - column) {
                    rows[base + column + offset] += value * kernel[offset + radius]
                }
            }
        }
        let outWidth = width - 2 * radius, outHeight = height - 2 * radius
        var result = [Float](repeating: 0, count: outWidth * outHeight)
        for row in 0..<height {
            if row & 255 == 0, Task.isCancelled { break }
            for column in radius..<(width - radius) where rows[row * width + column] != 0 {
                let value = rows[row * width + column]
                for offset in max(-radius, radius - row)...min(radius, height - 1 - radius - row) {
                    result[(row + offset - radius) * outWidth + column - radius] += value * kernel[offset + radius]
                }
            }
        }
        return result
    }

    /// Colours the density into a layer and paints it over the canvas.
    private func paint(_ density: [Float], gridWidth: Int, radius: Int, on canvas: Canvas) {
        guard let layer = try? Canvas(widthPixels: canvas.widthPixels, heightPixels: canvas.heightPixels),
              let data = cairo_image_surface_get_data(layer.surface) else { return }
        cairo_surface_flush(layer.surface)
        let stride = Int(cairo_image_surface_get_stride(layer.surface))
        let scale = Float(1 / log1p(Self.saturation(zoomLevel: projection.zoomLevel)))
        let ramp = Self.ramp
        for row in 0..<canvas.heightPixels {
            let line = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<canvas.widthPixels {
                let value = density[row * canvas.widthPixels + column]
                guard value > Self.faintestDensity else { continue }
                let level = min(1, log1p(value) * scale)
                line[column] = ramp[Int(level * Float(ramp.count - 1))]
            }
        }
        cairo_surface_mark_dirty(layer.surface)
        canvas.draw(layer, atX: 0, y: 0)
    }

    /// 256 premultiplied ARGB colours from a translucent blue through cyan, green and yellow to
    /// an opaque red.
    static let ramp: [UInt32] = {
        let stops: [(Double, UInt32, Double)] = [
            (0, 0x2040FF, 0.5), (0.25, 0x00C8FF, 0.6), (0.5, 0x30D040, 0.75), (0.75, 0xFFE000, 0.85), (1, 0xFF2000, 0.95),
        ]
        return (0..<256).map { index in
            let t = Double(index) / 255
            let upper = stops.firstIndex { $0.0 >= t } ?? stops.count - 1
            let lower = max(0, upper - 1)
            let (t0, c0, a0) = stops[lower], (t1, c1, a1) = stops[upper]
            let f = t1 > t0 ? (t - t0) / (t1 - t0) : 0
            let alpha = a0 + (a1 - a0) * f
            func channel(_ shift: UInt32) -> UInt32 {
                let v0 = Double((c0 >> shift) & 0xFF), v1 = Double((c1 >> shift) & 0xFF)
                return UInt32(((v0 + (v1 - v0) * f) * alpha).rounded())
            }
            return UInt32((alpha * 255).rounded()) << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
        }
    }()
}
