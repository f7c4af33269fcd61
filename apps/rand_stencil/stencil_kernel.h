/* rand_stencil: the work model, the stencil kernel and the checksum, shared
 * by every version (MPI, Pure, Pure with tasks) so that all of them compute
 * bit-identical results. README.md in this folder defines the model.
 *
 * Plain C that also compiles as C++. Every function is pure: no state lives
 * outside the arguments, because under Pure the ranks are threads of one
 * process. Everything that decides a result is integer arithmetic or a fixed
 * sequence of IEEE double operations (built with -ffp-contract=off, so no
 * compiler may fuse them into FMAs differently in one version than another).
 */
#ifndef RAND_STENCIL_KERNEL_H
#define RAND_STENCIL_KERNEL_H

#include <stdint.h>
#include <string.h>

/* The value of the ghost cells beyond both ends of the global array: the
 * stencil is not periodic. */
#define STENCIL_BOUNDARY 0.5

/* ---- deterministic pseudo-random numbers --------------------------------- */

/* The SplitMix64 finaliser: a bijective 64-bit mix. */
static inline uint64_t stencil_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static inline uint64_t stencil_hash3(uint64_t seed, uint64_t a, uint64_t b) {
  return stencil_mix(stencil_mix(stencil_mix(seed) ^ a) ^ b);
}

/* The initial value of global cell i: uniform in [0, 1) with 53 random bits. */
static inline double stencil_initial(uint64_t seed, int64_t i) {
  const uint64_t bits = stencil_hash3(seed, UINT64_MAX, (uint64_t)i) >> 11;
  return (double)bits * (1.0 / 9007199254740992.0); /* 2^-53 */
}

/* ---- the work model ------------------------------------------------------------
 * work(i, t), the number of inner iterations of cell i at iteration t, is
 *   base(i) + jitter(i, t)
 * base(i): cells [0, heavy) form the heavy region. Every light cell gives
 *   `moved` = round(imbalance * W) of its W inner iterations to the heavy
 *   region, spread as evenly as integers allow (the first `heavy_extra` heavy
 *   cells take one more). So the bases sum to exactly n * W for every
 *   imbalance, and imbalance 0 gives every cell W.
 * jitter: cells 2j and 2j+1 form a pair; a pseudo-random d drawn from
 *   (seed, t, j), |d| <= jitter * min(base(2j), base(2j+1)), is added to
 *   one and taken from the other, so each pair's sum is its bases' sum. A cell
 *   without a partner (the last one when n is odd) has no jitter.
 * Hence the total over all cells of one iteration is exactly n * W, and over a
 * run iters * n * W, whatever the imbalance, heavy fraction, jitter, seed and
 * rank count.
 */
struct stencil_work {
  int64_t n;            /* cells in the global array */
  uint64_t seed;
  int64_t heavy;        /* cells [0, heavy) are heavy; 1 <= heavy <= n */
  uint64_t light_base;  /* base(i) of a light cell */
  uint64_t heavy_base;  /* base(i) of a heavy cell i >= heavy_extra */
  int64_t heavy_extra;  /* heavy cells [0, heavy_extra) have heavy_base + 1 */
  uint64_t jitter_q;    /* jitter amplitude in 1/1024 of the pair's smaller base */
};

/* work: W, the mean inner iterations per cell (>= 0); imbalance in [0, 1];
 * heavy_fraction in (0, 1]; jitter in [0, 1]. */
/* Rounds a non-negative value to the nearest integer (no libm needed). */
static inline uint64_t stencil_round(double x) { return (uint64_t)(x + 0.5); }

static inline struct stencil_work stencil_work_make(int64_t n, uint64_t work, double imbalance,
                                                    double heavy_fraction, double jitter,
                                                    uint64_t seed) {
  struct stencil_work w;
  int64_t heavy = (int64_t)stencil_round(heavy_fraction * (double)n);
  heavy = heavy < 1 ? 1 : heavy > n ? n : heavy;
  const uint64_t moved = stencil_round(imbalance * (double)work);
  const uint64_t light = (uint64_t)(n - heavy);
  const uint64_t moved_total = moved * light;
  w.n = n;
  w.seed = seed;
  w.heavy = heavy;
  w.light_base = work - moved;
  w.heavy_base = work + moved_total / (uint64_t)heavy;
  w.heavy_extra = (int64_t)(moved_total % (uint64_t)heavy);
  w.jitter_q = stencil_round(jitter * 1024.0);
  return w;
}

static inline uint64_t stencil_base(const struct stencil_work* w, int64_t i) {
  if (i >= w->heavy) return w->light_base;
  return w->heavy_base + (i < w->heavy_extra ? 1u : 0u);
}

static inline uint64_t stencil_work_of(const struct stencil_work* w, int64_t i, int64_t t) {
  const int64_t partner = i ^ 1;
  const uint64_t base = stencil_base(w, i);
  if (partner >= w->n) return base;
  const uint64_t other = stencil_base(w, partner);
  const uint64_t smaller = base < other ? base : other;
  /* smaller * jitter_q / 1024 without overflowing for huge bases */
  const uint64_t amp = (smaller >> 10) * w->jitter_q + ((smaller & 1023u) * w->jitter_q >> 10);
  if (amp == 0) return base;
  const uint64_t d = stencil_hash3(w->seed, (uint64_t)t, (uint64_t)(i >> 1)) % (2 * amp + 1);
  /* d - amp lies in [-amp, amp]: the even cell gains it, the odd one loses it */
  return (i & 1) ? base + amp - d : base - amp + d;
}

/* ---- the kernel ---------------------------------------------------------------- */

/* The new value of a cell from its old value and its neighbours': their
 * average, mapped into [0.25, 0.75), then `work` steps of the logistic map
 * x -> 3.9 x (1 - x), a chaotic map of (0, 1) into itself, so any difference
 * in the arithmetic shows up in the checksum. Values stay in (0, 1).
 *
 * `previous` is the value this loop computed just before (any value in
 * (0, 1) for the first cell of a loop or chunk). It adds exactly +0.0, so it
 * never changes a result, but the compiler must keep it (0.0 * NaN is not 0),
 * and it makes each cell's chain of inner iterations start after the previous
 * one ends. Without it the processor overlaps the tail of one cell's chain
 * with the head of the next, more for short chains than for long ones, and
 * the same total work would take different times for different imbalances;
 * with it the time of a loop is proportional to its inner iterations. */
static inline double stencil_point(double left, double centre, double right, uint64_t work,
                                   double previous) {
  double x = 0.25 + (left + centre + right) * (0.5 / 3.0) + 0.0 * previous;
  for (uint64_t k = 0; k < work; ++k) x = 3.9 * x * (1.0 - x);
  return x;
}

/* ---- the checksum ---------------------------------------------------------------
 * Sums of integers modulo 2^64 do not depend on the order of addition, so the
 * totals are identical for every rank count and reduction order:
 *   hash:  sum over cells of mix(bits(x_i) ^ mix(i)), sensitive to every bit
 *          of every value and to its position;
 *   fixed: sum over cells of floor(x_i * 2^32), for a readable mean;
 *   work:  inner iterations executed, summed over all cells and iterations.
 */
enum { STENCIL_SUM_HASH, STENCIL_SUM_FIXED, STENCIL_SUM_WORK, STENCIL_SUMS };

/* Adds cells [first, first + count) of the global array, held in x[0..count),
 * to sums[STENCIL_SUM_HASH] and sums[STENCIL_SUM_FIXED]. */
static inline void stencil_add_sums(const double* x, int64_t first, int64_t count,
                                    uint64_t sums[STENCIL_SUMS]) {
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits;
    memcpy(&bits, &x[i], sizeof bits);
    sums[STENCIL_SUM_HASH] += stencil_mix(bits ^ stencil_mix((uint64_t)(first + i)));
    sums[STENCIL_SUM_FIXED] += (uint64_t)(x[i] * 4294967296.0);
  }
}

/* ---- the block distribution ---------------------------------------------------- */

/* Rank r of p owns global cells [n * r / p, n * (r + 1) / p). */
static inline int64_t stencil_block_first(int64_t n, int ranks, int rank) {
  return n * rank / ranks;
}

#endif /* RAND_STENCIL_KERNEL_H */
