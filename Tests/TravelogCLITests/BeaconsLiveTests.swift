import Dispatch
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogFormats
import TravelogTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("travelog beacons --live: btmon's stream read as it is written")
struct BeaconsLiveTests {
    static let regions = ["F7826DA6-4FA2-4E98-8024-BC5B71E0893E,100,3", "00000000-1111-2222-3333-444444444444"]

    static func scan() throws -> BeaconScan {
        try BeaconScan(regions: regions.map(BeaconsCommand.region))
    }

    /// The events of the whole capture read at once: what every live reading must tell.
    static func wholeEvents() throws -> [BeaconScan.Event] {
        var scan = try scan()
        let events = try scan.append(BeaconScanCapture.bytes())
        try scan.finish()
        return events
    }

    static func live(_ source: BeaconsCommand.LiveSource, onEvent: @escaping () -> Void = {}) throws -> [BeaconScan.Event] {
        var scan = try scan()
        var events: [BeaconScan.Event] = []
        try BeaconsCommand.streamEvents(&scan, from: source) { event in
            events.append(event)
            onEvent()
        }
        return events
    }

    /// A folder of its own with a FIFO in it.
    static func fifo() throws -> String {
        let path = TestDirectory.makeFolder("beacons-live").appendingPathComponent("scan.btsnoop").path
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    /// An executable shell script standing in for btmon.
    static func script(_ body: String) throws -> String {
        let path = TestDirectory.makeFolder("fake-btmon").appendingPathComponent("btmon").path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try #require(chmod(path, 0o755) == 0)
        return path
    }

    @Test("a FIFO written piece by piece: events come as the pieces arrive, the same as from the whole capture")
    func fromFIFO() throws {
        let path = try Self.fifo()
        let bytes = try BeaconScanCapture.bytes()
        let pieces = BeaconScanCapture.chunks(bytes, seed: 42, largest: 300)
        let half = pieces.count / 2
        let firstEvent = DispatchSemaphore(value: 0)
        let sawEventsEarly = ManagedFlag()
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            for (index, piece) in pieces.enumerated() {
                if index == half {
                    // Wait for the reader to tell something before the rest is written (bounded,
                    // so a reader that only tells at the end fails the check instead of hanging).
                    sawEventsEarly.set(firstEvent.wait(timeout: .now() + 60) == .success)
                }
                _ = piece.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            }
            close(descriptor)
        }
        writer.start()
        var signalled = false
        let events = try Self.live(.path(path)) {
            if !signalled {
                signalled = true
                firstEvent.signal()
            }
        }
        #expect(events == (try Self.wholeEvents()))
        #expect(sawEventsEarly.value, "events are told before the stream ends")
    }

    @Test("btmon started on a FIFO of our own (a stand-in that writes the capture): the same events; a btmon that fails is an error naming its status")
    func fromBtmon() throws {
        let capture = BeaconScanCapture.url.path
        let standIn = try Self.script("[ \"$1\" = -w ] || exit 2\ncat '\(capture)' > \"$2\"")
        #expect(try Self.live(.btmon(standIn)) == (try Self.wholeEvents()))

        let failing = try Self.script("echo 'Failed to open channel: Address family not supported by protocol' >&2\nexit 1")
        #expect {
            _ = try Self.live(.btmon(failing))
        } throws: { error in
            (error as? BeaconStreamSource.Failure).map { "\($0)".contains("status 1") } ?? false
        }
        #expect {
            _ = try Self.live(.btmon("/nonexistent/btmon"))
        } throws: { error in
            (error as? BeaconStreamSource.Failure).map { "\($0)".contains("status 127") && "\($0)".contains("bluez") } ?? false
        }
    }

    static let realBtmon = FileManager.default.isExecutableFile(atPath: "/usr/bin/btmon")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    @Test("BlueZ's own btmon writing live into the FIFO (fed a scan over a pseudo-terminal): the same events as its recorded capture",
          .enabled(if: realBtmon, "needs BlueZ's btmon (apt-get install bluez) and python3"))
    func fromRealBtmon() throws {
        let maker = SharedFixtures.repositoryRoot.appendingPathComponent("scripts/make-beacon-capture.py").path
        let wrapper = try Self.script("[ \"$1\" = -w ] || exit 2\nexec /usr/bin/python3 '\(maker)' \"$2\" 2>/dev/null")
        #expect(try Self.live(.btmon(wrapper)) == (try Self.wholeEvents()))
    }
}

/// A flag one thread sets and another reads.
private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ newValue: Bool) { lock.withLock { stored = newValue } }
}
