/* md: the command line and the output lines, shared by every version.
 *
 * Plain C that also compiles as C++. No getopt: its state is global and the
 * ranks may be threads of one process, each parsing the same argv.
 */
#ifndef MD_OPTIONS_H
#define MD_OPTIONS_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md_kernel.h"

struct md_options {
  int64_t nx, ny, nz; /* --nx --ny --nz (--size sets all three): FCC unit cells */
  int64_t steps;      /* --steps */
  int64_t print;      /* --print: energies every this many steps */
  double dt;          /* --dt: fs */
  double temp;        /* --temp: initial temperature, K */
  double fill;        /* --fill: fraction of the box along x that holds atoms */
  int64_t seed;       /* --seed: initial velocities */
};

#define MD_USAGE                                                                         \
  "usage: md [--size N | --nx N --ny N --nz N] [--steps S] [--print P] [--dt FS]\n"      \
  "          [--temp K] [--fill F] [--seed S]\n"                                         \
  "  --size N       an FCC copper crystal of N^3 unit cells, 4 N^3 atoms (default 20)\n" \
  "  --nx/ny/nz N   unit cells along one dimension\n"                                    \
  "  --steps S      velocity-Verlet time steps (default 100)\n"                          \
  "  --print P      print the energies every P steps (default 10)\n"                     \
  "  --dt FS        time step in fs (default 1)\n"                                       \
  "  --temp K       initial temperature in K (default 600)\n"                            \
  "  --fill F       0..1: only the unit cells in the first F of the box along x hold\n"  \
  "                 atoms, the rest is empty: the ranks owning the crystal do the\n"     \
  "                 work (default 1: a uniform crystal)\n"                               \
  "  --seed S       seed of the initial velocities (default 1)\n"

static inline int md_parse_int(const char* text, int64_t lo, int64_t hi, int64_t* out) {
  char* end = NULL;
  errno = 0;
  const long long value = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < lo || value > hi) return 0;
  *out = (int64_t)value;
  return 1;
}

static inline int md_parse_real(const char* text, double lo, double hi, double* out) {
  char* end = NULL;
  errno = 0;
  const double value = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !(value >= lo && value <= hi)) return 0;
  *out = value;
  return 1;
}

/* Fills *o from argv ("--name value" or "--name=value"). Returns 0 when the
 * options are valid, 1 for --help, 2 with a message in `error` otherwise. */
static inline int md_parse_options(int argc, char** argv, struct md_options* o, char* error,
                                   size_t error_size) {
  o->nx = o->ny = o->nz = 20;
  o->steps = 100;
  o->print = 10;
  o->dt = 1.0;
  o->temp = 600.0;
  o->fill = 1.0;
  o->seed = 1;
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return 1;
    const char* eq = strchr(arg, '=');
    const size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    const char* value = eq ? eq + 1 : (a + 1 < argc ? argv[a + 1] : NULL);
    if (!eq) ++a;
#define MD_IS(name) (name_len == strlen(name) && strncmp(arg, name, name_len) == 0)
    int known = 1, ok = 0;
    const int64_t max_cells = 1024;
    if (value == NULL) {
      ok = 0;
    } else if (MD_IS("--size")) {
      ok = md_parse_int(value, 1, max_cells, &o->nx);
      o->ny = o->nz = o->nx;
    } else if (MD_IS("--nx")) {
      ok = md_parse_int(value, 1, max_cells, &o->nx);
    } else if (MD_IS("--ny")) {
      ok = md_parse_int(value, 1, max_cells, &o->ny);
    } else if (MD_IS("--nz")) {
      ok = md_parse_int(value, 1, max_cells, &o->nz);
    } else if (MD_IS("--steps")) {
      ok = md_parse_int(value, 0, INT32_MAX, &o->steps);
    } else if (MD_IS("--print")) {
      ok = md_parse_int(value, 1, INT32_MAX, &o->print);
    } else if (MD_IS("--dt")) {
      ok = md_parse_real(value, 0.0, 100.0, &o->dt) && o->dt > 0.0;
    } else if (MD_IS("--temp")) {
      ok = md_parse_real(value, 0.0, 1e5, &o->temp);
    } else if (MD_IS("--fill")) {
      ok = md_parse_real(value, 0.0, 1.0, &o->fill) && o->fill > 0.0;
    } else if (MD_IS("--seed")) {
      ok = md_parse_int(value, 0, INT64_MAX, &o->seed);
    } else {
      known = 0;
    }
#undef MD_IS
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

/* Unit cells along x that hold atoms: round(fill * nx), at least 1. */
static inline int64_t md_filled_cells(const struct md_options* o) {
  const int64_t filled = (int64_t)(o->fill * (double)o->nx + 0.5);
  return filled < 1 ? 1 : filled;
}

/* Sums over all atoms, reduced across ranks: fixed-point energies (so the
 * totals, and the lines printed, do not depend on the rank count). */
enum { MD_SUM_POTENTIAL, MD_SUM_KINETIC, MD_SUMS };

/* One energy line, printed by rank 0: energies per atom in eV, the
 * temperature in K. Tools and tests compare these lines between versions. */
static inline void md_print_energies(int64_t step, double dt, int64_t atoms,
                                     const int64_t sums[MD_SUMS]) {
  const double pot = md_unfixed(sums[MD_SUM_POTENTIAL]) / (double)atoms;
  const double kin = md_unfixed(sums[MD_SUM_KINETIC]) / (double)atoms;
  printf("md: step %" PRId64 " time_fs %.2f e_total %.10f e_pot %.10f e_kin %.10f temp %.6f\n",
         step, (double)step * dt, pot + kin, pot, kin, kin / (1.5 * MD_KB_EV));
  fflush(stdout);
}

/* The closing line: what ran and how long the steps took. */
static inline void md_print_result(const char* version, const struct md_options* o, int64_t atoms,
                                   uint64_t pairs, double seconds, int ranks, const int grid[3]) {
  printf("md: atoms %" PRId64 " steps %" PRId64 " pairs %" PRIu64
         " time_s %.6f ranks %d grid "
         "%dx%dx%d fill %g version %s\n",
         atoms, o->steps, pairs, seconds, ranks, grid[0], grid[1], grid[2], o->fill, version);
  fflush(stdout);
}

#endif /* MD_OPTIONS_H */
