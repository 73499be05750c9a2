import Testing
import TravelogCore
import TravelogFormats

@Suite("NMEA epoch merging")
struct NMEAFixAssemblerTests {
    /// Feeds sentence bodies (checksums added) and returns every closed epoch, the last one included.
    static func epochs(_ bodies: [String]) throws -> [NMEAEpoch] {
        var assembler = NMEAFixAssembler()
        var epochs: [NMEAEpoch] = []
        for body in bodies {
            guard case .sentence(let sentence) = NMEASentence.parse(Array(NMEATestSupport.sentence(body).utf8)).result,
                  let message = try NMEAMessage(sentence) else { continue }
            if let epoch = assembler.ingest(message) { epochs.append(epoch) }
        }
        if let epoch = assembler.finish() { epochs.append(epoch) }
        return epochs
    }

    static let rmc = "GPRMC,081412.000,A,5541.1956,N,03737.2877,E,0.52,301.26,260514,,,A"
    static let gga = "GPGGA,081412.000,5541.1956,N,03737.2877,E,1,5,4.87,66.2,M,14.5,M,,"
    static let gsa = "GNGSA,A,3,03,19,27,13,,,,,,,,,4.97,4.87,1.00"
    static let vtg = "GPVTG,301.26,T,,M,0.52,N,0.96,K,A"

    @Test("the sentences of one time of day make one epoch with what each gives")
    func merge() throws {
        let epochs = try Self.epochs([Self.gga, Self.gsa, Self.rmc, "GPZDA,081412.000,26,05,2014,,",
                                      "GPGST,081412.000,4.0,8.7,4.7,132.3,6.8,7.2,14"])
        #expect(epochs.count == 1)
        let epoch = try #require(epochs.first)
        #expect(epoch.isFix)
        #expect(epoch.timeOfDay == NMEATimeOfDay(hour: 8, minute: 14, second: 12))
        #expect(epoch.date == CivilDate(year: 2014, month: 5, day: 26))
        #expect(epoch.altitudeMSLMeters == 66.2)
        #expect(epoch.geoidSeparationMeters == 14.5)
        #expect(epoch.satellitesUsed == 5)
        #expect(epoch.horizontalDilution == 4.87)
        #expect(epoch.verticalDilution == 1.00)
        #expect(epoch.positionDilution == 4.97)
        #expect(epoch.speedMetersPerSecond == Units.metersPerSecond(knots: 0.52))
        #expect(epoch.courseDegrees == 301.26)
        #expect(epoch.latitudeSigmaMeters == 6.8)
        #expect(epoch.altitudeSigmaMeters == 14)
    }

    @Test("a new time of day closes the epoch; sentences without a time join the open one")
    func boundaries() throws {
        let epochs = try Self.epochs([
            Self.rmc, Self.vtg, Self.gga, Self.gsa,
            "GPRMC,081413.000,A,5541.1959,N,03737.2894,E,0.46,308.99,260514,,,A", "GPVTG,308.99,T,,M,0.46,N,0.85,K,A",
        ])
        #expect(epochs.map(\.timeOfDay) == [NMEATimeOfDay(hour: 8, minute: 14, second: 12), NMEATimeOfDay(hour: 8, minute: 14, second: 13)])
        #expect(epochs.map(\.courseDegrees) == [301.26, 308.99])
        #expect(epochs[1].gsaFixMode == nil)
    }

    @Test("speed and course come from RMC before VTG, whichever comes first; VTG fills in when RMC has none")
    func speedPriority() throws {
        let withRMC = try Self.epochs(["GPVTG,10.0,T,,M,9.0,N,16.7,K,A", Self.rmc])
        #expect(withRMC.first?.speedMetersPerSecond == Units.metersPerSecond(knots: 0.52))
        #expect(withRMC.first?.courseDegrees == 301.26)
        let onlyVTG = try Self.epochs([Self.gga, "GPVTG,10.0,T,,M,9.0,N,16.7,K,A"])
        #expect(onlyVTG.first?.speedMetersPerSecond == Units.metersPerSecond(knots: 9))
        #expect(onlyVTG.first?.courseDegrees == 10)
    }

    @Test("sentences without a time before the first timed one join it")
    func pendingAdopted() throws {
        let epochs = try Self.epochs([Self.gsa, Self.vtg, Self.rmc])
        #expect(epochs.count == 1)
        #expect(epochs.first?.gsaFixMode == 3)
        #expect(epochs.first?.isFix == true)
    }

    @Test("the position with the most decimals wins, the first on a tie")
    func precision() throws {
        let epochs = try Self.epochs([
            "GPRMC,081412.000,A,5541.19,N,03737.28,E,0.52,301.26,260514,,,A",
            "GPGGA,081412.000,5541.19561,N,03737.28771,E,1,5,4.87,66.2,M,14.5,M,,",
        ])
        #expect(epochs.first?.position?.minuteDecimals == 5)
        #expect(epochs.first?.position?.coordinate.latitude == 55 + 41.19561 / 60)
    }

    @Test("RMC V, GGA quality 0 or GSA mode 1 in the epoch: no fix", arguments: [
        [Self.gga, "GPRMC,081412.000,V,5541.1956,N,03737.2877,E,0.52,301.26,260514,,,A"],
        ["GPGGA,081412.000,5541.1956,N,03737.2877,E,0,5,4.87,66.2,M,14.5,M,,", Self.rmc],
        [Self.rmc, "GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"],
    ])
    func noFix(bodies: [String]) throws {
        let epochs = try Self.epochs(bodies)
        #expect(epochs.count == 1)
        #expect(epochs.first?.isFix == false)
        #expect(epochs.first?.reportsLostFix == true)
    }

    @Test("one GSA per constellation: a fix when any of them has one")
    func multiGSA() throws {
        let epochs = try Self.epochs([Self.rmc, "GNGSA,A,3,03,19,27,13,,,,,,,,,2.75,2.56,1.00,1", "GNGSA,A,1,,,,,,,,,,,,,2.75,2.56,1.00,4"])
        #expect(epochs.first?.isFix == true)
        #expect(epochs.first?.gsaFixMode == 3)
    }

    @Test("a 'no fix' without a time does not spoil the open fix, and closes it")
    func timelessNoFix() throws {
        let epochs = try Self.epochs([Self.rmc, Self.gga, "GPRMC,,V,,,,,,,,,,N", "GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99",
                                      "GPGGA,,,,,,0,00,99.99,,,,,,"])
        #expect(epochs.count == 2)
        #expect(epochs[0].isFix)
        #expect(epochs[1].timeOfDay == nil)
        #expect(epochs[1].reportsLostFix)
    }

    @Test("a fix after a lost fix starts a new segment")
    func segments() throws {
        let epochs = try Self.epochs([
            Self.rmc,
            "GPRMC,081413.000,V,,,,,,260514,,,N",
            "GPRMC,081414.000,A,5541.1961,N,03737.2908,E,0.41,320.05,260514,,,A",
            "GPZDA,081415.000,26,05,2014,,",
            "GPRMC,081416.000,A,5541.1965,N,03737.2923,E,0.39,332.00,260514,,,A",
        ])
        #expect(epochs.filter(\.isFix).map(\.segment) == [0, 1, 1])
    }

    @Test("a GLL without a time (NMEA 1.5) is not placed in any epoch")
    func untimedGLL() throws {
        let epochs = try Self.epochs(["GPGLL,4916.45,N,12311.12,W"])
        #expect(epochs.isEmpty)
    }
}
