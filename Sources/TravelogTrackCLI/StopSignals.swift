import Foundation
import TravelogTracker

/// SIGINT and SIGTERM end `travelog track` cleanly: the GPX file gets its footer (the queue
/// needs nothing: every fix in it is already on disk).
enum StopSignals {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func finishOnStop(_ recorder: GPXRecorder) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                recorder.finish()
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
    }
}
