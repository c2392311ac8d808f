import Foundation
import Synchronization

/// Set by SIGINT (Ctrl-C) or SIGTERM while a run measures: the run stops starting samples,
/// finishes those in flight, writes what it measured and says how to resume. A second signal
/// ends the process at once.
package final class InterruptFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    package init() {}

    package var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }

    package func raise() { raised.store(true, ordering: .sequentiallyConsistent) }

    /// Catches SIGINT and SIGTERM until ``stopWatching()``.
    package func watchSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            sources.withLock { sources in
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak self] in
                    guard let self else { return }
                    if self.isRaised { _exit(130) }
                    self.raise()
                    FileHandle.standardError.write(
                        Data("\npadbench: interrupted; finishing the samples in flight (again to quit at once)\n".utf8))
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    package func stopWatching() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
