/* rng.h - splitmix64, the one generator of the project (docs/engine-notes.md).
 * The whole generator state is one uint64_t, so it lives inside POD states and
 * a state's "seed" in JSON is exactly this word. */
#ifndef TABULEIRO_RNG_H
#define TABULEIRO_RNG_H
#include <stdint.h>

/* Advance *s and return the next 64-bit draw. */
static inline uint64_t rng_draw(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A draw in [0, n); n >= 1. draw % n, as the engine notes fix it. */
static inline uint32_t rng_below(uint64_t *s, uint32_t n) {
    return (uint32_t)(rng_draw(s) % n);
}

/* Fisher-Yates from the back over n bytes; draws n-1 times (none for n < 2). */
static inline void rng_shuffle_u8(uint64_t *s, uint8_t *a, int n) {
    for (int i = n - 1; i > 0; --i) {
        int j = (int)rng_below(s, (uint32_t)(i + 1));
        uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

#endif
