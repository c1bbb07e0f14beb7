/* portable.h - everything compiler- or OS-specific in the C core, in one place.
 *
 * GCC and Clang (also clang-cl), MSVC, or any other C11 compiler:
 *   - bit scans and counts (tb_ctz32/64, tb_clz32/64, tb_popcount32/64),
 *   - the high half of a 64x64-bit product (tb_mulhi64),
 *   - alignment, static assertions and printf-format checks as macros,
 *   - a monotonic clock and a minimal threads shim (threads, a mutex, a
 *     condition variable with a timed wait, run-once): POSIX threads, or
 *     Win32 threads on Windows; implemented in portable.c.
 *
 * No other file of the core uses a compiler builtin, an __attribute__,
 * <pthread.h> or <windows.h>. The bit functions are static inline and need
 * nothing but <stdint.h>; the header never includes <windows.h> (the
 * Windows thread types below are layout copies, checked in portable.c). */
#ifndef TABULEIRO_PORTABLE_H
#define TABULEIRO_PORTABLE_H
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TB_GNU 1
#else
#define TB_GNU 0
#endif
#if !TB_GNU && defined(_MSC_VER)
#define TB_MSVC 1
#include <intrin.h>
#else
#define TB_MSVC 0
#endif

#define TB_CAT_(a, b) a##b
#define TB_CAT(a, b) TB_CAT_(a, b)

/* ---- alignment, static assertions, format checks -------------------------- */

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define TB_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define TB_ALIGNAS(n) _Alignas(n)
#define TB_ALIGNOF(type) _Alignof(type)
#elif TB_MSVC   /* MSVC without /std:c11 */
#define TB_STATIC_ASSERT(cond, msg) typedef char TB_CAT(tb_static_assert_, __LINE__)[(cond) ? 1 : -1]
#define TB_ALIGNAS(n) __declspec(align(n))
#define TB_ALIGNOF(type) __alignof(type)
#else
#error "tabuleiro needs a C11 compiler (static assertions and alignment)"
#endif

#if TB_GNU
#define TB_PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define TB_PRINTF_LIKE(fmt_index, first_arg)
#endif

/* ---- bits ------------------------------------------------------------------- */

/* Trailing zero bits; x != 0. */
static inline int tb_ctz32(uint32_t x) {
#if TB_GNU
    return __builtin_ctz(x);
#elif TB_MSVC
    unsigned long i;
    _BitScanForward(&i, x);
    return (int)i;
#else
    int n = 0;
    while (!(x & 1u)) { x >>= 1; ++n; }
    return n;
#endif
}

static inline int tb_ctz64(uint64_t x) {
#if TB_GNU
    return __builtin_ctzll(x);
#elif TB_MSVC && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
#else
    uint32_t lo = (uint32_t)x;
    return lo ? tb_ctz32(lo) : 32 + tb_ctz32((uint32_t)(x >> 32));
#endif
}

/* Leading zero bits; x != 0. */
static inline int tb_clz32(uint32_t x) {
#if TB_GNU
    return __builtin_clz(x);
#elif TB_MSVC
    unsigned long i;
    _BitScanReverse(&i, x);
    return 31 - (int)i;
#else
    int n = 0;
    while (!(x & 0x80000000u)) { x <<= 1; ++n; }
    return n;
#endif
}

static inline int tb_clz64(uint64_t x) {
#if TB_GNU
    return __builtin_clzll(x);
#elif TB_MSVC && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
#else
    uint32_t hi = (uint32_t)(x >> 32);
    return hi ? tb_clz32(hi) : 32 + tb_clz32((uint32_t)x);
#endif
}

/* Set bits. The builtin only where the target has the instruction: elsewhere
 * it is a library call, slower than the SWAR count (and MSVC's __popcnt
 * needs a POPCNT CPU that x86-64 does not guarantee). */
#if TB_GNU && (defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON))
static inline int tb_popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int tb_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int tb_popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int tb_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* The high 64 bits of the 128-bit product a * b. */
#if TB_GNU && defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 tb_u128;
static inline uint64_t tb_mulhi64(uint64_t a, uint64_t b) { return (uint64_t)(((tb_u128)a * b) >> 64); }
#elif TB_MSVC && (defined(_M_X64) || defined(_M_ARM64))
static inline uint64_t tb_mulhi64(uint64_t a, uint64_t b) { return __umulh(a, b); }
#else
static inline uint64_t tb_mulhi64(uint64_t a, uint64_t b) {
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
#endif

/* ---- clock and threads (portable.c) ---------------------------------------- */

/* Seconds on a monotonic clock (only differences mean anything). */
double tb_monotonic_seconds(void);

#ifdef _WIN32
/* Layout copies of HANDLE, SRWLOCK, CONDITION_VARIABLE and INIT_ONCE (one
 * pointer each), so that this header needs no <windows.h>. */
typedef struct { void *h; } tb_thread;
typedef struct { void *p; } tb_mutex;
typedef struct { void *p; } tb_cond;
typedef struct { void *p; } tb_once;
#define TB_ONCE_INIT {0}
#else
#include <pthread.h>
typedef struct { pthread_t t; } tb_thread;
typedef pthread_mutex_t tb_mutex;
typedef pthread_cond_t tb_cond;
typedef pthread_once_t tb_once;
#define TB_ONCE_INIT PTHREAD_ONCE_INIT
#endif

/* Start fn(arg) on a new thread with an 8 MiB stack on every OS: 0 on
 * success, nonzero if no thread could be had (then nothing runs). Every
 * started thread is joined exactly once. */
int tb_thread_create(tb_thread *t, void *(*fn)(void *), void *arg);
void tb_thread_join(tb_thread t);

/* 0 on success. */
int tb_mutex_init(tb_mutex *m);
void tb_mutex_destroy(tb_mutex *m);
void tb_mutex_lock(tb_mutex *m);
void tb_mutex_unlock(tb_mutex *m);

int tb_cond_init(tb_cond *c);
void tb_cond_destroy(tb_cond *c);
void tb_cond_signal(tb_cond *c);
/* Wait on c (m held) for at most ms milliseconds; may return early or
 * spuriously, so callers re-check their condition. */
void tb_cond_wait_ms(tb_cond *c, tb_mutex *m, int ms);

/* fn runs exactly once over every call with the same o (TB_ONCE_INIT). */
void tb_call_once(tb_once *o, void (*fn)(void));

#endif
