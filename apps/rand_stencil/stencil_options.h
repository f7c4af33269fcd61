/* rand_stencil: the command line and the result line, shared by every version.
 *
 * Plain C that also compiles as C++. No getopt: its state is global and the
 * ranks may be threads of one process, each parsing the same argv.
 */
#ifndef RAND_STENCIL_OPTIONS_H
#define RAND_STENCIL_OPTIONS_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stencil_kernel.h"

struct stencil_options {
  int64_t n;         /* --n: cells in the global array */
  int64_t iters;     /* --iters: stencil iterations */
  int64_t work;      /* --work: mean inner iterations per cell and iteration */
  double imbalance;  /* --imbalance: share of the light cells' work moved to the heavy region */
  double heavy;      /* --heavy: the heavy region, as a fraction of the array */
  double jitter;     /* --jitter: per-cell random work, as a fraction of the base */
  uint64_t seed;     /* --seed */
  int json;          /* --format json: the result line as a JSON object */
};

#define STENCIL_USAGE                                                                         \
  "usage: rand_stencil [--n CELLS] [--iters T] [--work W] [--imbalance X]\n"                 \
  "                    [--heavy F] [--jitter J] [--seed S] [--format text|json]\n"          \
  "  --n CELLS      cells in the global 1-D array, >= ranks (default 65536)\n"               \
  "  --iters T      stencil iterations (default 100)\n"                                      \
  "  --work W       mean inner iterations per cell and iteration (default 64)\n"             \
  "  --imbalance X  0..1: share of each light cell's work moved to the heavy region;\n"      \
  "                 0 is perfectly balanced; the total work is n*iters*W for every X\n"      \
  "                 (default 0)\n"                                                           \
  "  --heavy F      0..1: the heavy region, cells [0, F*n) (default 0.25)\n"                 \
  "  --jitter J     0..1: random per-cell work, up to J times the base, moved\n"             \
  "                 between the two cells of a pair (default 0.5)\n"                         \
  "  --seed S       seed of the initial values and the jitter (default 1)\n"                 \
  "  --format F     the result line as text or as one JSON object (default text)\n"

/* Parses `text` as an integer in [lo, hi]; returns 1 on success. */
static inline int stencil_parse_int(const char* text, int64_t lo, int64_t hi, int64_t* out) {
  char* end = NULL;
  errno = 0;
  const long long value = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < lo || value > hi) return 0;
  *out = (int64_t)value;
  return 1;
}

/* Parses `text` as a number in [lo, hi]; returns 1 on success. */
static inline int stencil_parse_real(const char* text, double lo, double hi, double* out) {
  char* end = NULL;
  errno = 0;
  const double value = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !(value >= lo && value <= hi)) return 0;
  *out = value;
  return 1;
}

/* Fills *o from argv ("--name value" or "--name=value"). Returns 0 when the
 * options are valid, 1 for --help, 2 with a message in `error` otherwise. */
static inline int stencil_parse_options(int argc, char** argv, struct stencil_options* o,
                                        char* error, size_t error_size) {
  o->n = 65536;
  o->iters = 100;
  o->work = 64;
  o->imbalance = 0.0;
  o->heavy = 0.25;
  o->jitter = 0.5;
  o->seed = 1;
  o->json = 0;
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return 1;
    const char* eq = strchr(arg, '=');
    const size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    const char* value = eq ? eq + 1 : (a + 1 < argc ? argv[a + 1] : NULL);
    if (!eq) ++a;
#define STENCIL_IS(name) (name_len == strlen(name) && strncmp(arg, name, name_len) == 0)
    int known = 1, ok = 0;
    int64_t seed = 0;
    if (value == NULL) {
      ok = 0;
    } else if (STENCIL_IS("--n")) {
      ok = stencil_parse_int(value, 1, INT64_C(1) << 40, &o->n);
    } else if (STENCIL_IS("--iters")) {
      ok = stencil_parse_int(value, 0, INT32_MAX, &o->iters);
    } else if (STENCIL_IS("--work")) {
      ok = stencil_parse_int(value, 0, INT64_C(1) << 20, &o->work);
    } else if (STENCIL_IS("--imbalance")) {
      ok = stencil_parse_real(value, 0.0, 1.0, &o->imbalance);
    } else if (STENCIL_IS("--heavy")) {
      ok = stencil_parse_real(value, 0.0, 1.0, &o->heavy) && o->heavy > 0.0;
    } else if (STENCIL_IS("--jitter")) {
      ok = stencil_parse_real(value, 0.0, 1.0, &o->jitter);
    } else if (STENCIL_IS("--seed")) {
      ok = stencil_parse_int(value, 0, INT64_MAX, &seed);
      o->seed = (uint64_t)seed;
    } else if (STENCIL_IS("--format")) {
      ok = strcmp(value, "text") == 0 || strcmp(value, "json") == 0;
      o->json = strcmp(value, "json") == 0;
    } else {
      known = 0;
    }
#undef STENCIL_IS
    if (!known) {
      snprintf(error, error_size, "unknown option '%.*s'", (int)name_len, arg);
      return 2;
    }
    if (!ok && value == NULL) {
      snprintf(error, error_size, "%.*s: missing value", (int)name_len, arg);
      return 2;
    }
    if (!ok) {
      snprintf(error, error_size, "%.*s: bad value '%s'", (int)name_len, arg, value);
      return 2;
    }
  }
  return 0;
}

static inline struct stencil_work stencil_options_work(const struct stencil_options* o) {
  return stencil_work_make(o->n, (uint64_t)o->work, o->imbalance, o->heavy, o->jitter, o->seed);
}

/* The options of a job of `ranks` ranks, as every version reads them:
 * -1 when the job is to run; otherwise the exit status (0 after --help, 2
 * after a bad option or fewer cells than ranks), the usage or the error
 * printed by rank 0 under `program`'s name. */
static inline int stencil_job_options(int argc, char** argv, int ranks, int rank,
                                      const char* program, struct stencil_options* o) {
  char error[256] = "";
  int parsed = stencil_parse_options(argc, argv, o, error, sizeof error);
  if (parsed == 0 && o->n < ranks) {
    snprintf(error, sizeof error, "--n %" PRId64 " is fewer cells than the %d ranks", o->n,
             ranks);
    parsed = 2;
  }
  if (parsed == 0) return -1;
  if (rank == 0 && parsed == 2) fprintf(stderr, "%s: %s\n%s", program, error, STENCIL_USAGE);
  if (rank == 0 && parsed == 1) printf("%s", STENCIL_USAGE);
  return parsed == 1 ? 0 : 2;
}

/* The result line, printed by rank 0; tools and tests parse it by field name
 * (text) or read it as JSON (--format json, for tools/bench_report.py). */
static inline void stencil_print_result(const char* version, const struct stencil_options* o,
                                        const uint64_t sums[STENCIL_SUMS], double seconds,
                                        int ranks) {
  const double mean = (double)sums[STENCIL_SUM_FIXED] / 4294967296.0 / (double)o->n;
  if (o->json) {
    printf("{\"bench\":\"rand_stencil\",\"kind\":\"result\",\"checksum\":\"0x%016" PRIx64
           "\",\"mean\":%.17g,\"work\":%" PRIu64 ",\"time\":%.6f,\"ranks\":%d,\"version\":\"%s\","
           "\"n\":%" PRId64 ",\"iters\":%" PRId64 ",\"imbalance\":%g}\n",
           sums[STENCIL_SUM_HASH], mean, sums[STENCIL_SUM_WORK], seconds, ranks, version, o->n,
           o->iters, o->imbalance);
    fflush(stdout);
    return;
  }
  printf("rand_stencil: checksum 0x%016" PRIx64 " mean %.17g work %" PRIu64
         " time %.6f ranks %d version %s n %" PRId64 " iters %" PRId64 " imbalance %g\n",
         sums[STENCIL_SUM_HASH], mean, sums[STENCIL_SUM_WORK], seconds, ranks, version, o->n,
         o->iters, o->imbalance);
  fflush(stdout);
}

#endif /* RAND_STENCIL_OPTIONS_H */
