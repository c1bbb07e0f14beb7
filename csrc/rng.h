/* rng.h - splitmix64, the one generator of the project (docs/engine-notes.md).
 * The whole generator state is one uint64_t, so it lives inside POD states and
 * a state's "seed" in JSON is exactly this word. */
#ifndef TABULEIRO_RNG_H
#define TABULEIRO_RNG_H
#include "portable.h"
#include <stdint.h>

/* Advance *s and return the next 64-bit draw. */
static inline uint64_t rng_draw(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* x % n, exactly. For n <= 64 the switch lets the compiler turn each
 * modulo by a constant into multiplications (a 64-bit division is the most
 * expensive step of a shuffle). */
static inline uint32_t rng_mod(uint64_t x, uint32_t n) {
    switch (n) {
    case 1: return (uint32_t)(x % 1u);
    case 2: return (uint32_t)(x % 2u);
    case 3: return (uint32_t)(x % 3u);
    case 4: return (uint32_t)(x % 4u);
    case 5: return (uint32_t)(x % 5u);
    case 6: return (uint32_t)(x % 6u);
    case 7: return (uint32_t)(x % 7u);
    case 8: return (uint32_t)(x % 8u);
    case 9: return (uint32_t)(x % 9u);
    case 10: return (uint32_t)(x % 10u);
    case 11: return (uint32_t)(x % 11u);
    case 12: return (uint32_t)(x % 12u);
    case 13: return (uint32_t)(x % 13u);
    case 14: return (uint32_t)(x % 14u);
    case 15: return (uint32_t)(x % 15u);
    case 16: return (uint32_t)(x % 16u);
    case 17: return (uint32_t)(x % 17u);
    case 18: return (uint32_t)(x % 18u);
    case 19: return (uint32_t)(x % 19u);
    case 20: return (uint32_t)(x % 20u);
    case 21: return (uint32_t)(x % 21u);
    case 22: return (uint32_t)(x % 22u);
    case 23: return (uint32_t)(x % 23u);
    case 24: return (uint32_t)(x % 24u);
    case 25: return (uint32_t)(x % 25u);
    case 26: return (uint32_t)(x % 26u);
    case 27: return (uint32_t)(x % 27u);
    case 28: return (uint32_t)(x % 28u);
    case 29: return (uint32_t)(x % 29u);
    case 30: return (uint32_t)(x % 30u);
    case 31: return (uint32_t)(x % 31u);
    case 32: return (uint32_t)(x % 32u);
    case 33: return (uint32_t)(x % 33u);
    case 34: return (uint32_t)(x % 34u);
    case 35: return (uint32_t)(x % 35u);
    case 36: return (uint32_t)(x % 36u);
    case 37: return (uint32_t)(x % 37u);
    case 38: return (uint32_t)(x % 38u);
    case 39: return (uint32_t)(x % 39u);
    case 40: return (uint32_t)(x % 40u);
    case 41: return (uint32_t)(x % 41u);
    case 42: return (uint32_t)(x % 42u);
    case 43: return (uint32_t)(x % 43u);
    case 44: return (uint32_t)(x % 44u);
    case 45: return (uint32_t)(x % 45u);
    case 46: return (uint32_t)(x % 46u);
    case 47: return (uint32_t)(x % 47u);
    case 48: return (uint32_t)(x % 48u);
    case 49: return (uint32_t)(x % 49u);
    case 50: return (uint32_t)(x % 50u);
    case 51: return (uint32_t)(x % 51u);
    case 52: return (uint32_t)(x % 52u);
    case 53: return (uint32_t)(x % 53u);
    case 54: return (uint32_t)(x % 54u);
    case 55: return (uint32_t)(x % 55u);
    case 56: return (uint32_t)(x % 56u);
    case 57: return (uint32_t)(x % 57u);
    case 58: return (uint32_t)(x % 58u);
    case 59: return (uint32_t)(x % 59u);
    case 60: return (uint32_t)(x % 60u);
    case 61: return (uint32_t)(x % 61u);
    case 62: return (uint32_t)(x % 62u);
    case 63: return (uint32_t)(x % 63u);
    case 64: return (uint32_t)(x % 64u);
    default: return (uint32_t)(x % n);
    }
}

/* A draw in [0, n); n >= 1. draw % n, as the engine notes fix it. */
static inline uint32_t rng_below(uint64_t *s, uint32_t n) {
    return rng_mod(rng_draw(s), n);
}

/* A draw in [0, n) by multiply-shift: for choices that no state format fixes
 * (playout policies, search), cheaper than rng_below. */
static inline uint32_t rng_pick(uint64_t *s, uint32_t n) {
    return (uint32_t)tb_mulhi64(rng_draw(s), n);
}

/* Fisher-Yates from the back over n bytes; draws n-1 times (none for n < 2). */
static inline void rng_shuffle_u8(uint64_t *s, uint8_t *a, int n) {
    for (int i = n - 1; i > 0; --i) {
        int j = (int)rng_below(s, (uint32_t)(i + 1));
        uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

/* Fold x into the hash h (the information-state and search keys). Not a
 * generator: equal (h, x), equal result; different inputs rarely collide. */
static inline uint64_t key_mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

#endif
