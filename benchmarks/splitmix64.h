/* The per-game generator of core/rng.py in C, shared by the C loops (card_random.c, classic_random.c,
 * tuscany_random.c): SplitMix64, a game's state mix64(mix64(seed) ^ game index) (docs/protocol.md). */
#ifndef SPLITMIX64_H
#define SPLITMIX64_H
#include <stdint.h>

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline uint64_t next_u64(uint64_t *s) { *s += 0x9E3779B97F4A7C15ULL; return mix64(*s); }
static inline int coin(uint64_t *s) { return (int)(next_u64(s) >> 63); }
static inline int64_t below(uint64_t *s, int64_t n) {  /* Lemire's multiply-shift, unbiased */
    uint64_t un = (uint64_t)n, m = (next_u64(s) >> 32) * un, low = m & 0xFFFFFFFFULL;
    if (low < un) {
        uint64_t threshold = ((1ULL << 32) - un) % un;
        while (low < threshold) { m = (next_u64(s) >> 32) * un; low = m & 0xFFFFFFFFULL; }
    }
    return (int64_t)(m >> 32);
}
#endif
