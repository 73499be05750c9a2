import TravelogCore

extension NMEAEpoch {
    /// Adds what one sentence of the epoch says. Values already known from a better source stay.
    public mutating func merge(_ message: NMEAMessage) {
        switch message {
        case .gga(let gga):
            mergeReport(gga.fixReport, position: gga.position)
            fixQuality = fixQuality ?? gga.quality
            altitudeMSLMeters = altitudeMSLMeters ?? gga.altitudeMSLMeters
            geoidSeparationMeters = geoidSeparationMeters ?? gga.geoidSeparationMeters
            satellitesUsed = satellitesUsed ?? gga.satellitesUsed
            fixHorizontalDilution = fixHorizontalDilution ?? positive(gga.horizontalDilution)
        case .rmc(let rmc):
            mergeReport(rmc.fixReport, position: rmc.position)
            if rmc.fixReport == .fix {
                rmcSpeedMetersPerSecond = rmcSpeedMetersPerSecond ?? rmc.speedKnots.map { Units.metersPerSecond(knots: $0) }
                rmcCourseDegrees = rmcCourseDegrees ?? rmc.courseDegrees
                magneticVariationDegrees = magneticVariationDegrees ?? rmc.magneticVariationDegrees
            }
            if rmc.timeOfDay != nil { date = date ?? rmc.date }
        case .gll(let gll):
            mergeReport(gll.fixReport, position: gll.position)
        case .gns(let gns):
            mergeReport(gns.fixReport, position: gns.position)
            altitudeMSLMeters = altitudeMSLMeters ?? gns.altitudeMSLMeters
            geoidSeparationMeters = geoidSeparationMeters ?? gns.geoidSeparationMeters
            satellitesUsed = satellitesUsed ?? gns.satellitesUsed
            fixHorizontalDilution = fixHorizontalDilution ?? positive(gns.horizontalDilution)
        case .vtg(let vtg):
            vtgCourseDegrees = vtgCourseDegrees ?? vtg.courseDegrees
            let speed = vtg.speedKnots.map { Units.metersPerSecond(knots: $0) }
                ?? vtg.speedKilometersPerHour.map { Units.metersPerSecond(kilometersPerHour: $0) }
            vtgSpeedMetersPerSecond = vtgSpeedMetersPerSecond ?? speed
        case .gsa(let gsa):
            if let mode = gsa.fixMode { gsaFixMode = max(gsaFixMode ?? mode, mode) }
            gsaHorizontalDilution = gsaHorizontalDilution ?? positive(gsa.horizontalDilution)
            verticalDilution = verticalDilution ?? positive(gsa.verticalDilution)
            positionDilution = positionDilution ?? positive(gsa.positionDilution)
        case .gst(let gst):
            latitudeSigmaMeters = latitudeSigmaMeters ?? gst.latitudeSigmaMeters
            longitudeSigmaMeters = longitudeSigmaMeters ?? gst.longitudeSigmaMeters
            altitudeSigmaMeters = altitudeSigmaMeters ?? gst.altitudeSigmaMeters
        case .zda(let zda):
            if zda.timeOfDay != nil { date = date ?? zda.date }
        }
    }

    private mutating func mergeReport(_ report: NMEAMessage.FixReport, position: NMEAMessage.Position?) {
        reportsPosition = true
        if report == .noFix { reportsNoFix = true }
        if let position, position.minuteDecimals > (self.position?.minuteDecimals ?? -1) {
            self.position = position
        }
    }

    /// Receivers write a DOP of 0 (or less) when they have none.
    private func positive(_ value: Double?) -> Double? {
        guard let value, value > 0 else { return nil }
        return value
    }
}
