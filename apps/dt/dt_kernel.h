/* NAS DT: the classes, the feature generator and the operations of the graph
 * nodes, as NPB 3.4 defines them (README.md in this folder), shared by every
 * version (MPI, Pure, Pure with tasks) so that all compute the same values.
 *
 * Plain C that also compiles as C++. Every function is pure: no state lives
 * outside the arguments, because under Pure the ranks are threads of one
 * process. The verification values are those of NPB's reference code, so
 * every operation here reproduces its arithmetic exactly: 32-bit integer
 * products that wrap as the reference's `int` products do on two's-complement
 * hardware, conversions that truncate, and a fixed sequence of IEEE double
 * operations (built with -ffp-contract=off, so no compiler fuses them into
 * FMAs, which would change the filter's comparisons).
 *
 * Every range function ([lo, hi) arguments) computes the part of a result
 * that lies in the range, from inputs only, so a task may cut the work into
 * chunks and the values do not depend on the cut.
 */
#ifndef DT_KERNEL_H
#define DT_KERNEL_H

#include <stdint.h>
#include <string.h>

/* Values per sample: the feature arrays hold 4 doubles per sample. */
#define DT_FIELD_DIM 4

/* ---- the classes --------------------------------------------------------------- */

/* One problem class: the mean number of samples per feature array, the
 * spread of the sources' array lengths around it, the number of sources (a
 * power of two) and NPB's published L2 norms of the three graphs. */
struct dt_class {
  char name;
  int32_t samples;
  int32_t deviation;
  int sources;
  double verify[3]; /* BH, WH, SH */
};

/* Classes S, W, A and B; returns 1 and fills *c when `name` is one of them. */
static inline int dt_class_lookup(char name, struct dt_class* c) {
  static const struct dt_class classes[] = {
      {'S', 1728, 128, 4, {30892725.0, 67349758.0, 58875767.0}},
      {'W', 1728 * 8, 128 * 2, 4 * 2, {4102461.0, 204280762.0, 186944764.0}},
      {'A', 1728 * 64, 128 * 4, 4 * 4, {17809491.0, 1289925229.0, 610856482.0}},
      {'B', 1728 * 512, 128 * 8, 4 * 8, {4317114.0, 7877279917.0, 1836863082.0}},
  };
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
    if (classes[i].name == name) {
      *c = classes[i];
      return 1;
    }
  }
  return 0;
}

/* NPB accepts an L2 norm within 1e-8 of the published value. */
static inline int dt_verified(double l2, double expected) {
  return l2 - expected < 1e-8 && l2 - expected > -1e-8;
}

/* ---- integer arithmetic as the reference does it ---------------------------------- */

/* a * b in 32-bit two's-complement arithmetic (the product wraps). */
static inline int32_t dt_mul32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a * (uint32_t)b);
}

/* NPB's modular power: a^n mod md by halving the exponent when it is even
 * and peeling one factor off when it is odd, with the products wrapping in
 * 32 bits and C's remainder (its sign follows the dividend). With a small
 * base nothing wraps and the result is the true power; the reference's
 * feature counts use a large base, where the wrapping decides the result. */
static inline int32_t dt_ipow_mod(int32_t a, int64_t n, int32_t md) {
  if (n < 0) n = -n; /* the reference warns and uses |n| */
  if (n == 0) return 1;
  int32_t q = a, r = 1;
  while (n > 1) {
    if (n % 2 == 0) {
      q = dt_mul32(q, q) % md;
      n /= 2;
    } else {
      r = dt_mul32(r, q) % md;
      n -= 1;
    }
  }
  return dt_mul32(r, q) % md;
}

/* NPB's randlc: x <- a * x mod 2^46 for integers x, a < 2^46 held in
 * doubles; returns the new x times 2^-46, in (0, 1). The product modulo 2^64
 * reduced modulo 2^46 is the product modulo 2^46, so 64-bit unsigned
 * arithmetic gives the exact value NPB's split double arithmetic computes. */
static inline double dt_randlc(double* x, double a) {
  const uint64_t mask = (UINT64_C(1) << 46) - 1;
  const uint64_t next = ((uint64_t)*x * (uint64_t)a) & mask;
  *x = (double)next;
  return (double)next * (1.0 / 70368744177664.0); /* 2^-46 */
}

/* A double truncated to an int as x86's conversion does it: toward zero, and
 * INT32_MIN for a value out of range (where C leaves the result undefined). */
static inline int32_t dt_trunc32(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0)) return INT32_MIN;
  return (int32_t)x;
}

/* ---- the sources' features ---------------------------------------------------------- */

/* The number of samples of source node `id`: the class's mean, moved by a
 * pseudo-random amount in [-deviation, deviation) drawn from randlc. */
static inline int32_t dt_feature_samples(const struct dt_class* c, int id) {
  double seed = 314159265.0;
  const double denom = dt_randlc(&seed, (double)(2 * id + 1));
  const int32_t base = dt_mul32(dt_trunc32(1.0 / denom), 'S');
  int32_t spread = dt_ipow_mod(base, 2 * id + 1, 2 * c->deviation);
  if (spread < 0) spread = -spread;
  return c->samples - c->deviation + spread;
}

/* The generator of a source's feature array: four multiplicative sequences,
 * x_k = x_0 * g^k mod m for (g, m) = (2, 421), (2, 419), (2, 1427), (5, 3527),
 * whose start values depend on the array's length and the node. Sample k
 * holds x_{k+1} of the four. */
struct dt_features {
  int32_t samples;
  int32_t start[DT_FIELD_DIM];
};

static const int32_t dt_feature_base[DT_FIELD_DIM] = {2, 2, 2, 5};
static const int32_t dt_feature_mod[DT_FIELD_DIM] = {421, 419, 1427, 3527};

static inline struct dt_features dt_features_of(const struct dt_class* c, int id) {
  struct dt_features f;
  f.samples = dt_feature_samples(c, id);
  const int32_t len = f.samples * DT_FIELD_DIM;
  const int64_t expon = (int64_t)(dt_mul32(len, id + 1) % 3141592);
  for (int d = 0; d < DT_FIELD_DIM; ++d) {
    f.start[d] = dt_ipow_mod(dt_feature_base[d], expon, dt_feature_mod[d]);
  }
  return f;
}

/* Writes samples [lo, hi) of the feature array into val (4 doubles each).
 * Sample k's values are computed directly as start * g^(k+1) mod m (no
 * product here exceeds 32 bits), the same integers the reference's running
 * products give. */
static inline void dt_features_fill(const struct dt_features* f, double* val, int64_t lo,
                                    int64_t hi) {
  if (lo >= hi) return;
  int32_t x[DT_FIELD_DIM];
  for (int d = 0; d < DT_FIELD_DIM; ++d) {
    x[d] = f->start[d] * dt_ipow_mod(dt_feature_base[d], lo, dt_feature_mod[d]) % dt_feature_mod[d];
  }
  for (int64_t k = lo; k < hi; ++k) {
    for (int d = 0; d < DT_FIELD_DIM; ++d) {
      x[d] = x[d] * dt_feature_base[d] % dt_feature_mod[d];
      val[k * DT_FIELD_DIM + d] = (double)x[d];
    }
  }
}

/* ---- resampling ---------------------------------------------------------------------
 * NPB's Resample stretches an array of n values to m > n values with the
 * integer factor r = m / n (integer division): value i (0 < i < n-1) is
 * spread evenly over the outputs [floor((i - 1/2) r), floor((i + 1/2) r)],
 * adjacent values sharing their boundary output; the first and last outputs
 * take the first and last values; outputs beyond (n - 1.5) r stay 0. Each
 * output sums its contributions in increasing i. */

/* The first and last outputs value i contributes to. */
static inline void dt_resample_span(int64_t i, int64_t ratio, int64_t* jlo, int64_t* jhi) {
  *jlo = dt_trunc32(0.5 * (double)(2 * i - 1) * (double)ratio);
  *jhi = dt_trunc32(0.5 * (double)(2 * i + 1) * (double)ratio);
}

/* Outputs [lo, hi) of resampling in[0..n) to out[0..m). */
static inline void dt_resample_range(const double* in, int64_t n, double* out, int64_t m,
                                     int64_t lo, int64_t hi) {
  if (lo >= hi) return;
  const int64_t ratio = m / n;
  for (int64_t j = lo; j < hi; ++j) out[j] = 0.0;
  /* value i reaches no output below floor((i - 1/2) r) >= (i - 1) r */
  int64_t i = lo / ratio;
  if (i > 1) i -= 1;
  if (i < 1) i = 1;
  for (; i < n - 1; ++i) {
    int64_t jlo, jhi;
    dt_resample_span(i, ratio, &jlo, &jhi);
    if (jlo >= hi) break;
    if (jhi < lo) continue;
    const double share = in[i] / (double)(jhi - jlo + 1);
    const int64_t from = jlo > lo ? jlo : lo;
    const int64_t to = jhi < hi - 1 ? jhi : hi - 1;
    for (int64_t j = from; j <= to; ++j) out[j] += share;
  }
  if (lo == 0) out[0] = in[0];
  if (hi == m) out[m - 1] = in[n - 1];
}

/* ---- the comparator's window filter ---------------------------------------------------
 * NPB's WindowFilter(a, b, node): after resampling the shorter of a and b to
 * the longer's length, every inner sample p of a (1 <= p < samples - 1)
 * becomes weight * b[p + k], weight = (node + 1) / (node + 2), where k in
 * {-1, 0, 1} picks the sample of b nearest (squared distance over the 4
 * values) to a's sample at that offset: a[p] and a[p+1] as they were, a[p-1]
 * as the filter has just rewritten it. Ties prefer k = 0, then k = 1 over
 * k = -1. That last dependence chains the samples: p's choice needs p-1's.
 * The first and last samples of a are left as they are. */

static inline double dt_distance2(const double* a, const double* b) {
  const double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2], d3 = a[3] - b[3];
  return d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
}

static inline double dt_filter_weight(int node) { return (double)(node + 1) / (double)(node + 2); }

/* The offset k for sample p, with a[p-1] given (rewritten, or the first
 * sample) in `previous`. */
static inline int dt_filter_choice(const double* a, const double* b, const double* previous,
                                   int64_t p) {
  double best = dt_distance2(&a[p * DT_FIELD_DIM], &b[p * DT_FIELD_DIM]);
  int k = 0;
  const double next = dt_distance2(&a[(p + 1) * DT_FIELD_DIM], &b[(p + 1) * DT_FIELD_DIM]);
  if (next < best) {
    k = 1;
    best = next;
  }
  if (dt_distance2(previous, &b[(p - 1) * DT_FIELD_DIM]) < best) k = -1;
  return k;
}

/* Filters samples [lo, hi) of a (1 <= lo, hi <= samples - 1) in order, a[lo-1]
 * already final. */
static inline void dt_filter_range(double* a, const double* b, int64_t lo, int64_t hi,
                                   double weight) {
  for (int64_t p = lo; p < hi; ++p) {
    const int k = dt_filter_choice(a, b, &a[(p - 1) * DT_FIELD_DIM], p);
    const double* src = &b[(p + k) * DT_FIELD_DIM];
    double* dst = &a[p * DT_FIELD_DIM];
    dst[0] = weight * src[0];
    dst[1] = weight * src[1];
    dst[2] = weight * src[2];
    dst[3] = weight * src[3];
  }
}

/* ---- the comparator's result and the sink's reduction ---------------------------------- */

/* After filtering with all its inputs, a comparator divides every value,
 * truncated to an integer, by its number of inputs (integer division). The
 * values are bounded by the features' moduli, far inside an int. */
static inline void dt_normalize_range(double* val, int64_t lo, int64_t hi, int inputs) {
  for (int64_t i = lo; i < hi; ++i) val[i] = (double)((int32_t)val[i] / inputs);
}

/* The sink's measure of one input of len values: the mean of the squares,
 * summed in order, times `weight`, truncated to an integer. */
static inline double dt_reduce(const double* val, int64_t len, int weight) {
  double sum = 0.0;
  const double n = (double)len;
  for (int64_t i = 0; i < len; ++i) sum += val[i] * val[i] / n;
  return (double)dt_trunc32((double)weight * sum);
}

/* The sink's checksum from the sum of its inputs' measures. */
static inline double dt_sink_checksum(double measures, int inputs, int node) {
  const int64_t mean = (int64_t)measures / inputs;
  return (double)(node + 1) * (double)mean;
}

#endif /* DT_KERNEL_H */
