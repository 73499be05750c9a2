import Foundation
import Glibc

/// Samples a process's resident memory every 100 ms until `stop()`, and kills it (SIGKILL) when
/// the memory passes `killBytes`. VmHWM is the kernel's own peak; the samples only add the kill.
final class MemoryWatch: @unchecked Sendable {
    let processIdentifier: Int32
    let killBytes: Int
    private let lock = NSLock()
    private var stopping = false
    private var peak = (peakBytes: 0, killed: false)

    init(processIdentifier: Int32, killBytes: Int) {
        self.processIdentifier = processIdentifier
        self.killBytes = killBytes
    }

    /// The highest VmHWM seen, and whether the process was killed.
    var figures: (peakBytes: Int, killed: Bool) { lock.lock(); defer { lock.unlock() }; return peak }

    func stop() { lock.lock(); stopping = true; lock.unlock() }

    func run() {
        var tick = BlockingThreads.nowNanoseconds()
        while !isStopping {
            let memory = ServerProcess.memory(processIdentifier: processIdentifier)
            lock.lock(); peak.peakBytes = max(peak.peakBytes, memory.peakBytes); lock.unlock()
            if memory.residentBytes > killBytes, !figures.killed {
                kill(processIdentifier, SIGKILL)
                lock.lock(); peak.killed = true; lock.unlock()
            }
            tick += 100_000_000
            BlockingThreads.sleep(untilNanoseconds: tick)
        }
    }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }
}
