/* portable.c - the clock and threads shim of portable.h: Win32 threads on
 * Windows, POSIX threads and clock_gettime elsewhere. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, pthreads */
#endif
#include "portable.h"
#include <stdlib.h>

/* Every thread's stack, reserved (touched only as used): Linux's usual
 * default, so that macOS (512 KiB for secondary threads) and Windows (the
 * executable's reserve) give deep perft recursions and searches the same room. */
#define TB_THREAD_STACK ((size_t)8 << 20)

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <process.h>

TB_STATIC_ASSERT(sizeof(tb_mutex) == sizeof(SRWLOCK), "tb_mutex is an SRWLOCK");
TB_STATIC_ASSERT(sizeof(tb_cond) == sizeof(CONDITION_VARIABLE), "tb_cond is a CONDITION_VARIABLE");
TB_STATIC_ASSERT(sizeof(tb_once) == sizeof(INIT_ONCE), "tb_once is an INIT_ONCE");

double tb_monotonic_seconds(void) {
    LARGE_INTEGER freq, now;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart / (double)freq.QuadPart;
}

typedef struct { void *(*fn)(void *); void *arg; } tb_start;

static unsigned __stdcall tb_thread_main(void *p) {
    tb_start s = *(tb_start *)p;
    free(p);
    s.fn(s.arg);
    return 0;
}

int tb_thread_create(tb_thread *t, void *(*fn)(void *), void *arg) {
    tb_start *s = malloc(sizeof *s);
    if (!s) return 1;
    s->fn = fn;
    s->arg = arg;
    uintptr_t h = _beginthreadex(NULL, TB_THREAD_STACK, tb_thread_main, s, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    if (!h) { free(s); return 1; }
    t->h = (void *)h;
    return 0;
}

void tb_thread_join(tb_thread t) {
    WaitForSingleObject((HANDLE)t.h, INFINITE);
    CloseHandle((HANDLE)t.h);
}

int tb_mutex_init(tb_mutex *m) { InitializeSRWLock((PSRWLOCK)m); return 0; }
void tb_mutex_destroy(tb_mutex *m) { (void)m; }
void tb_mutex_lock(tb_mutex *m) { AcquireSRWLockExclusive((PSRWLOCK)m); }
void tb_mutex_unlock(tb_mutex *m) { ReleaseSRWLockExclusive((PSRWLOCK)m); }

int tb_cond_init(tb_cond *c) { InitializeConditionVariable((PCONDITION_VARIABLE)c); return 0; }
void tb_cond_destroy(tb_cond *c) { (void)c; }
void tb_cond_signal(tb_cond *c) { WakeConditionVariable((PCONDITION_VARIABLE)c); }
void tb_cond_wait_ms(tb_cond *c, tb_mutex *m, int ms) {
    SleepConditionVariableSRW((PCONDITION_VARIABLE)c, (PSRWLOCK)m, ms > 0 ? (DWORD)ms : 0, 0);
}

typedef struct { void (*fn)(void); } tb_once_fn;

static BOOL CALLBACK tb_once_main(PINIT_ONCE once, PVOID param, PVOID *context) {
    (void)once;
    (void)context;
    ((tb_once_fn *)param)->fn();
    return TRUE;
}

void tb_call_once(tb_once *o, void (*fn)(void)) {
    tb_once_fn f = {fn};
    InitOnceExecuteOnce((PINIT_ONCE)o, tb_once_main, &f, NULL);
}

#else /* POSIX */
#include <time.h>

double tb_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int tb_thread_create(tb_thread *t, void *(*fn)(void *), void *arg) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return 1;
    pthread_attr_setstacksize(&attr, TB_THREAD_STACK);   /* a failure keeps the default */
    int rc = pthread_create(&t->t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

void tb_thread_join(tb_thread t) { pthread_join(t.t, NULL); }

int tb_mutex_init(tb_mutex *m) { return pthread_mutex_init(m, NULL); }
void tb_mutex_destroy(tb_mutex *m) { pthread_mutex_destroy(m); }
void tb_mutex_lock(tb_mutex *m) { pthread_mutex_lock(m); }
void tb_mutex_unlock(tb_mutex *m) { pthread_mutex_unlock(m); }

int tb_cond_init(tb_cond *c) { return pthread_cond_init(c, NULL); }
void tb_cond_destroy(tb_cond *c) { pthread_cond_destroy(c); }
void tb_cond_signal(tb_cond *c) { pthread_cond_signal(c); }
void tb_cond_wait_ms(tb_cond *c, tb_mutex *m, int ms) {
    struct timespec until;   /* CLOCK_REALTIME: the condition's default clock, and macOS has no other */
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(c, m, &until);
}

void tb_call_once(tb_once *o, void (*fn)(void)) { pthread_once(o, fn); }
#endif
