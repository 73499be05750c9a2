/// How a polygon's rings decide which points are inside, as in SVG and PostScript.
public enum FillRule: Sendable, Hashable {
    /// Inside when a ray from the point crosses the rings an odd number of times: inside the
    /// exterior ring and outside every hole, whichever way each ring winds.
    case evenOdd
    /// Inside when the rings wind around the point a non-zero number of times: a hole is a
    /// hole only if it winds opposite to the exterior (as RFC 7946's right-hand rule asks).
    case nonZero
}
