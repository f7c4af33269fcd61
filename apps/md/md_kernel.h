/* md: the physics and the force kernel of the CoMD-style molecular dynamics
 * proxy (README.md in this folder), shared by every version (MPI, Pure, Pure
 * with tasks) so that all compute bit-identical trajectories.
 *
 * Plain C that also compiles as C++. Every function is pure: no state lives
 * outside the arguments, because under Pure the ranks are threads of one
 * process. Results do not depend on the rank count either: the force on an
 * atom sums its neighbours in a fixed order (cells in a fixed order, atoms
 * in a cell by id), and every sum over atoms is of integers (fixed point),
 * whose order does not matter. Built with -ffp-contract=off, so no compiler
 * fuses a*b+c into an FMA in one version and not in another.
 */
#ifndef MD_KERNEL_H
#define MD_KERNEL_H

#include <stdint.h>

/* ---- units and CoMD's Lennard-Jones copper ------------------------------------------
 * Lengths in Angstrom, times in fs, energies in eV, masses in eV fs^2 / A^2. */
#define MD_AMU_TO_INTERNAL_MASS \
  (1.660538921e-27 * 1.0e-10 * 1.0e-10 / (1.0e-15 * 1.0e-15 * 1.602176565e-19))
#define MD_KB_EV 8.6173324e-5 /* Boltzmann's constant, eV / K */
#define MD_SIGMA 2.315        /* A */
#define MD_EPSILON 0.167      /* eV */
#define MD_MASS (63.55 * MD_AMU_TO_INTERNAL_MASS)
#define MD_LATTICE 3.615           /* FCC lattice constant, A */
#define MD_CUTOFF (2.5 * MD_SIGMA) /* A */

/* The pair potential 4 eps ((s/r)^12 - (s/r)^6), shifted to 0 at the cutoff,
 * in the form the kernel evaluates. */
struct md_lj {
  double cutoff2;
  double sigma2;
  double eps4;
  double eps24;
  double shift; /* (s/rc)^6 ((s/rc)^6 - 1) */
};

static inline struct md_lj md_lj_copper(void) {
  struct md_lj p;
  const double sr2 = MD_SIGMA * MD_SIGMA / (MD_CUTOFF * MD_CUTOFF);
  const double sr6 = sr2 * sr2 * sr2;
  p.cutoff2 = MD_CUTOFF * MD_CUTOFF;
  p.sigma2 = MD_SIGMA * MD_SIGMA;
  p.eps4 = 4.0 * MD_EPSILON;
  p.eps24 = 24.0 * MD_EPSILON;
  p.shift = sr6 * (sr6 - 1.0);
  return p;
}

/* ---- fixed point: sums over atoms that do not depend on their order ------------------ */

#define MD_FIXED_ONE 4294967296.0 /* 2^32 */

/* x rounded to a multiple of 2^-32 (|x| < 2^31), as an integer. */
static inline int64_t md_fixed(double x) {
  return (int64_t)(x * MD_FIXED_ONE + (x < 0.0 ? -0.5 : 0.5));
}

static inline double md_unfixed(int64_t x) { return (double)x / MD_FIXED_ONE; }

/* ---- deterministic pseudo-random numbers --------------------------------------------- */

/* The SplitMix64 finaliser: a bijective 64-bit mix. */
static inline uint64_t md_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* A normal deviate for (seed, atom, component): the sum of 12 uniform
 * deviates minus 6 (mean 0, variance 1), without libm, so every build draws
 * the same numbers. */
static inline double md_normal(uint64_t seed, int64_t atom, int component) {
  uint64_t state = md_mix(md_mix(seed) ^ md_mix((uint64_t)atom * 3u + (uint64_t)component));
  double sum = 0.0;
  for (int k = 0; k < 12; ++k) {
    state = md_mix(state);
    sum += (double)(state >> 11) * (1.0 / 9007199254740992.0); /* 2^-53 */
  }
  return sum - 6.0;
}

/* ---- the lattice ---------------------------------------------------------------------
 * An FCC crystal of nx * ny * nz unit cells of side MD_LATTICE, 4 atoms per
 * cell, fills the periodic box [0, nx a) x [0, ny a) x [0, nz a); with a
 * fill fraction below 1, only the unit cells ix < filled hold atoms (a slab
 * of crystal, the rest of the box empty). Atom ids number the sites
 * ((ix * ny + iy) * nz + iz) * 4 + b. */
static const double md_fcc_basis[4][3] = {
    {0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 0.0, 0.5}, {0.0, 0.5, 0.5}};

/* ---- link cells ------------------------------------------------------------------------
 * The box is cut into G_d >= 3 cells of side >= the cutoff along each
 * dimension; a rank owns a block of n_d cells along each and keeps one more
 * layer of ghost cells around it (the extended grid, n_d + 2 per dimension,
 * local index -1 .. n_d). Every cell's atoms are contiguous in one position
 * array, in increasing id: the owned atoms first, then the ghosts. */
struct md_cells {
  int n[3];   /* owned cells per dimension */
  int ext[3]; /* n + 2 */
  int* start; /* per extended cell: its first atom in the position array */
  int* count; /* per extended cell: its number of atoms */
};

/* The global cell of coordinate x along a dimension of `cells` cells of side
 * `side`: floor(x / side), clamped to [0, cells - 1] (x lies in [0, L)). */
static inline int md_cell_of(double x, double side, int cells) {
  int c = (int)(x / side);
  if (c < 0) c = 0;
  if (c > cells - 1) c = cells - 1;
  return c;
}

/* Extended-grid index of local cell (ix, iy, iz), each from -1 to n. */
static inline int md_cell_index(const struct md_cells* c, int ix, int iy, int iz) {
  return ((ix + 1) * c->ext[1] + (iy + 1)) * c->ext[2] + (iz + 1);
}

static inline int md_owned_cells(const struct md_cells* c) { return c->n[0] * c->n[1] * c->n[2]; }

/* Forces on, and potential energies of, the atoms of owned cells [lo, hi)
 * (numbered x-major over the owned block), from every atom within the cutoff
 * in the 27 cells around each (its own included): f gets 3 values and e one
 * per atom, e being half of each pair's energy. Writes only the atoms of
 * those cells, so disjoint ranges may run at once. Returns the number of
 * pairs within the cutoff (each counted from both sides). */
static inline uint64_t md_forces_of_cells(const struct md_cells* c, const double* x, double* f,
                                          double* e, const struct md_lj* p, int lo, int hi) {
  uint64_t pairs = 0;
  const int plane = c->n[1] * c->n[2];
  for (int k = lo; k < hi; ++k) {
    const int ix = k / plane, iy = k / c->n[2] % c->n[1], iz = k % c->n[2];
    int nb_start[27], nb_count[27];
    int s = 0;
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dz = -1; dz <= 1; ++dz, ++s) {
          const int nb = md_cell_index(c, ix + dx, iy + dy, iz + dz);
          nb_start[s] = c->start[nb];
          nb_count[s] = c->count[nb];
        }
      }
    }
    const int self = md_cell_index(c, ix, iy, iz);
    const int first = c->start[self], last = first + c->count[self];
    for (int i = first; i < last; ++i) {
      const double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
      double fx = 0.0, fy = 0.0, fz = 0.0, ei = 0.0;
      for (s = 0; s < 27; ++s) {
        const int end = nb_start[s] + nb_count[s];
        for (int j = nb_start[s]; j < end; ++j) {
          if (j == i) continue;
          const double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
          const double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 >= p->cutoff2) continue;
          const double inv_r2 = 1.0 / r2;
          double s6 = p->sigma2 * inv_r2;
          s6 = s6 * s6 * s6;
          ei += 0.5 * p->eps4 * (s6 * (s6 - 1.0) - p->shift);
          const double fr = p->eps24 * inv_r2 * s6 * (2.0 * s6 - 1.0);
          fx += fr * dx;
          fy += fr * dy;
          fz += fr * dz;
          ++pairs;
        }
      }
      f[3 * i] = fx;
      f[3 * i + 1] = fy;
      f[3 * i + 2] = fz;
      e[i] = ei;
    }
  }
  return pairs;
}

#endif /* MD_KERNEL_H */
