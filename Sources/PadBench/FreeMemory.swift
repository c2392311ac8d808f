import CLinux
import Foundation

/// The heap's free pages given back between a run's phases (``padbench_release_free_memory``,
/// glibc's malloc_trim): measuring, the subject bootstrap and the analyses each free arrays of a
/// value or more per sample, which glibc keeps for reuse once its mmap threshold has risen to
/// their size; the next phase's peak would otherwise stack on that garbage (docs/PERFORMANCE.md,
/// 2026-11-28: bench memory).
package enum FreeMemory {
    static func releaseAfterPhase() { _ = padbench_release_free_memory() }

    /// One heap arena per core (at least two), unless the user set `MALLOC_ARENA_MAX`: glibc's
    /// default of eight per core let every worker thread keep its own freed arrays resident.
    /// Called once at start, before any thread allocates.
    package static func limitArenas() {
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
        _ = padbench_limit_heap_arenas(Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }
}
