#ifndef SELECTLOG_PREFETCH_H
#define SELECTLOG_PREFETCH_H

/// Asks for the cache line holding `p` for writing, without waiting for it. A hint: it
/// reads and writes nothing and cannot fault.
///
/// On x86 `prefetchw`, written out: `__builtin_prefetch(p, 1, 3)` emits it only for a
/// target with PRFCHW, which a generic x86-64 build is not, and otherwise `prefetcht0`,
/// a read, which leaves the line shared with the core that last read it (and measured
/// no gain). x86-64 processors without PRFCHW (Intel's before Broadwell) decode it as a
/// no-op; 32-bit x86, where some early processors fault on it, keeps the builtin.
static inline __attribute__((always_inline)) void selectlog_prefetch_write(const void *p) {
#if defined(__x86_64__)
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

#endif
