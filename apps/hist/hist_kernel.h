/* What every version of the distributed histogram shares (README.md): the
 * options, the keys each rank generates, where a bin lives, the checksum
 * and the result line. Header-only C, no mutable globals (ranks may be
 * threads). */
#ifndef HIST_KERNEL_H
#define HIST_KERNEL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hist_options {
  long long keys; /* in all, dealt out to the ranks in blocks */
  long long bins; /* in all */
  double skew;    /* 1: uniform; above 1 the low bins get more keys */
  uint64_t seed;
  int batch;        /* active-message version: keys per message */
  const char* mode; /* PGAS version: "atomics" or "am" */
};

/* Parses the options; prints usage and returns 0 on a bad one. */
static int hist_parse(int argc, char** argv, struct hist_options* o) {
  o->keys = 200000;
  o->bins = 1 << 16;
  o->skew = 1.0;
  o->seed = 1;
  o->batch = 256;
  o->mode = "atomics";
  /* Options come in pairs: a name and its value. */
  for (int i = 1; i < argc; i += 2) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) goto bad;
    if (strcmp(a, "--keys") == 0)
      o->keys = atoll(v);
    else if (strcmp(a, "--bins") == 0)
      o->bins = atoll(v);
    else if (strcmp(a, "--skew") == 0)
      o->skew = atof(v);
    else if (strcmp(a, "--seed") == 0)
      o->seed = (uint64_t)atoll(v);
    else if (strcmp(a, "--batch") == 0)
      o->batch = atoi(v);
    else if (strcmp(a, "--mode") == 0)
      o->mode = v;
    else
      goto bad;
  }
  if (o->keys < 1 || o->bins < 1 || o->skew < 1.0 || o->batch < 1 ||
      (strcmp(o->mode, "atomics") != 0 && strcmp(o->mode, "am") != 0))
    goto bad;
  return 1;
bad:
  fprintf(stderr,
          "usage: %s [--keys N in all] [--bins N] [--skew S >= 1] [--seed N] "
          "[--mode atomics|am] [--batch N]\n",
          argv[0]);
  return 0;
}

static uint64_t hist_mix(uint64_t x) { /* splitmix64's finaliser */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The keys rank r of p adds: [first(r), first(r + 1)), blocks whose sizes
 * differ by at most one, so that the histogram is the same at every rank
 * count. */
static long long hist_first_key(const struct hist_options* o, int rank, int ranks) {
  const long long q = o->keys / ranks, rem = o->keys % ranks;
  return q * rank + (rank < rem ? rank : rem);
}

/* Key i: u uniform in [0, 1) from (seed, i), then floor(bins * u^skew). */
static long long hist_key(const struct hist_options* o, long long i) {
  const uint64_t x = hist_mix(o->seed * 0x100000001b3ull ^ hist_mix((uint64_t)i));
  const double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
  long long k = (long long)((double)o->bins * pow(u, o->skew));
  return k < o->bins ? k : o->bins - 1;
}

/* Bins are dealt out in blocks: rank r owns [r * per, (r + 1) * per). */
static long long hist_per_rank(const struct hist_options* o, int ranks) {
  return (o->bins + ranks - 1) / ranks;
}

/* The checksum of a rank's block: sum of count * (global bin + 1) * odd
 * constant, mod 2^64, summed over ranks; the total, and the largest bin. */
struct hist_summary {
  uint64_t checksum;
  int64_t total;
  int64_t largest;
};

static struct hist_summary hist_summarise(const int64_t* counts, long long n, long long first) {
  struct hist_summary s = {0, 0, 0};
  for (long long b = 0; b < n; ++b) {
    s.checksum += (uint64_t)counts[b] * ((uint64_t)(first + b + 1) * 0x9e3779b97f4a7c15ull);
    s.total += counts[b];
    if (counts[b] > s.largest) s.largest = counts[b];
  }
  return s;
}

/* The result line, printed by rank 0; tests and tools read it by field name
 * (apps/rand_stencil/same_result.cmake, tools/bench_apps.py). */
static void hist_print(const char* version, const struct hist_options* o, int ranks,
                       const struct hist_summary* s, double seconds) {
  const int ok = s->total == o->keys;
  printf(
      "hist: version %s ranks %d keys %lld bins %lld skew %g checksum %016llx largest %lld "
      "verified %s time %.6f\n",
      version, ranks, o->keys, o->bins, o->skew, (unsigned long long)s->checksum,
      (long long)s->largest, ok ? "yes" : "no", seconds);
  fflush(stdout);
}

#endif
