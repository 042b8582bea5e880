#ifndef SELECTLOG_BIAS_H
#define SELECTLOG_BIAS_H

// What the recorder's biased engine lock (`EngineLock`) needs and Swift has no spelling
// of: the calling thread's identity in one instruction, a compiler barrier, and the
// process-wide memory barrier (`membarrier(2)`) that lets the lock's owner enter with
// plain loads and stores while any other thread that wants the lock pays for both.

#include <stdint.h>
#if defined(__linux__)
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <pthread.h>
#endif

/// A number for the calling thread, the same at every call on it and different from
/// every other thread alive: its thread pointer, which never is 0 or 1.
///
/// On x86-64 and arm64 Linux the thread pointer register, read in one instruction; the
/// x86-64 and arm64 TLS ABIs keep the thread's own address there (`%fs:0`) or in the
/// register itself (`tpidr_el0`). Elsewhere `pthread_self()`. Volatile: read again at
/// every call, never merged with an earlier read (code inlined across an `await` may
/// resume on another thread).
static inline __attribute__((always_inline)) uintptr_t selectlog_thread_id(void) {
#if defined(__linux__) && defined(__x86_64__)
    uintptr_t tp;
    __asm__ volatile("movq %%fs:0, %0" : "=r"(tp));
    return tp;
#elif defined(__linux__) && defined(__aarch64__)
    uintptr_t tp;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
    return tp;
#else
    return (uintptr_t)pthread_self();
#endif
}

/// Keeps the compiler from moving memory accesses across it; emits nothing. The owner's
/// side of the asymmetric barrier: `selectlog_heavy_barrier()` on another thread does the
/// processor's part (C's `atomic_signal_fence`, which Swift does not have).
static inline __attribute__((always_inline)) void selectlog_compiler_barrier(void) {
    __asm__ volatile("" ::: "memory");
}

#if defined(__linux__) && defined(SYS_membarrier)
// The commands, from <linux/membarrier.h>, which some C libraries' headers lack.
#define SELECTLOG_MEMBARRIER_CMD_QUERY 0
#define SELECTLOG_MEMBARRIER_CMD_GLOBAL 1
#define SELECTLOG_MEMBARRIER_CMD_PRIVATE_EXPEDITED 8
#define SELECTLOG_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED 16
#endif

/// Registers the process for `selectlog_heavy_barrier()` and makes one such barrier; 1
/// when both succeeded, 0 when the kernel lacks the command (before Linux 4.14), a
/// sandbox refuses it, or the platform is not Linux. After a registration that
/// succeeded the command fails only for a process that is not registered, which this
/// one then is. Called once a process. (The global command is not required: kernels
/// booted with `nohz_full` lack it.)
static inline int selectlog_heavy_barrier_register(void) {
#if defined(__linux__) && defined(SYS_membarrier)
    long commands = syscall(SYS_membarrier, SELECTLOG_MEMBARRIER_CMD_QUERY, 0);
    if (commands < 0) return 0;
    if (!(commands & SELECTLOG_MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return 0;
    if (syscall(SYS_membarrier, SELECTLOG_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) != 0) return 0;
    return syscall(SYS_membarrier, SELECTLOG_MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == 0;
#else
    return 0;
#endif
}

/// Makes every other running thread of the process execute a full memory barrier before
/// it returns (interrupting their cores); threads not running pass one when they are
/// next scheduled. After it, a store another thread made before its compiler barrier is
/// visible here, and a load it makes after the barrier sees what this thread stored
/// before the call. Returns 1 on success. Only after `selectlog_heavy_barrier_register()`
/// said 1; falls back to the global command (slower: it waits for every core to pass a
/// quiescent state), which needs no registration.
static inline int selectlog_heavy_barrier(void) {
#if defined(__linux__) && defined(SYS_membarrier)
    if (syscall(SYS_membarrier, SELECTLOG_MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == 0) return 1;
    return syscall(SYS_membarrier, SELECTLOG_MEMBARRIER_CMD_GLOBAL, 0) == 0;
#else
    return 0;
#endif
}

#endif
