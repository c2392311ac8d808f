// Linux calls Swift cannot make through Glibc: prctl(2) is variadic, renameat2(2) is declared only
// under _GNU_SOURCE, and the code between fork(2) and execve(2) must not touch Swift's runtime
// (no allocation, no locks) because the child of a multithreaded process may only call
// async-signal-safe functions (POSIX, fork(2) "Application usage").
#ifndef PADBENCH_CLINUX_SHIM_H
#define PADBENCH_CLINUX_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/// Gives the heap's free pages back to the system (malloc_trim(3), glibc: the top of the heap is
/// cut and free pages inside it are released with madvise). A run's phases free large arrays that
/// glibc keeps for reuse, since its mmap threshold rises to the largest block freed; without this
/// the next phase's peak stacks on the last one's garbage. Returns 1 when memory was released.
static inline int padbench_release_free_memory(void) { return malloc_trim(0); }

/// Caps the number of glibc malloc arenas (mallopt(3) M_ARENA_MAX). glibc makes up to eight per
/// core; each thread that frees large arrays in an arena of its own keeps those pages resident,
/// so the parallel phases of a run (one worker per core) multiplied its garbage. Returns 1 on success.
static inline int padbench_limit_heap_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }

/// Swaps two paths atomically (renameat2(2) with RENAME_EXCHANGE, Linux 3.15). 0 or -1 and errno.
static inline int padbench_exchange(const char *a, const char *b) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

/// Makes this process the reaper of its orphaned descendants (prctl(2) PR_SET_CHILD_SUBREAPER).
static inline int padbench_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/// Closes every descriptor from `first` on in a child between fork and exec: close_range(2)
/// (Linux 5.9), else close(2) on each number below the descriptor limit (both async-signal-safe).
static inline void padbench_close_from(int first) {
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
    struct rlimit limit;
    long last = 65536;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) last = (long)limit.rlim_cur;
    if (last > (1L << 20)) last = 1L << 20;
    for (long fd = first; fd < last; fd++) (void)close((int)fd);
}

/// fork(2) + execve(2) of `path` with `argv`/`envp`, standard input/output/error from `in`, `out`
/// and `err`, an empty signal mask, default signal handlers, a process group of its own and
/// PR_SET_PDEATHSIG = SIGKILL, so that the child dies with the thread that forked it. A child
/// whose parent is already gone (the parent died between fork and prctl) exits at once.
/// The child keeps descriptors 0, 1 and 2 only: every other one padbench holds (the run's lock,
/// its journal, images being read, other estimators' pipes), close-on-exec or not, is closed
/// before exec, so a program never holds padbench's files open nor writes into them.
/// Returns the child's pid, or -1 with errno set.
static inline pid_t padbench_spawn(const char *path, char *const argv[], char *const envp[], int in, int out,
                                   int err) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0) (void)setpgid(pid, pid); // also in the parent: no kill(-pid) before the child's own call
        return pid;
    }
    struct sigaction defaults;
    defaults.sa_handler = SIG_DFL;
    defaults.sa_flags = 0;
    sigemptyset(&defaults.sa_mask);
    for (int s = 1; s < NSIG; s++) (void)sigaction(s, &defaults, 0);
    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, 0);
    (void)setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent) _exit(127);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
    padbench_close_from(3);
    execve(path, argv, envp);
    _exit(127);
}

#endif
