import CLinux

/// The heap's free pages given back between a run's phases (``padbench_release_free_memory``,
/// glibc's malloc_trim): measuring, the subject bootstrap and the analyses each free arrays of a
/// value or more per sample, which glibc keeps for reuse once its mmap threshold has risen to
/// their size; the next phase's peak would otherwise stack on that garbage (docs/PERFORMANCE.md,
/// 2026-11-28: bench memory).
enum FreeMemory {
    static func releaseAfterPhase() { _ = padbench_release_free_memory() }
}
