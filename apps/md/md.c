/* md: a CoMD-style molecular dynamics proxy (README.md in this folder), as a
 * plain MPI program: Lennard-Jones copper on an FCC lattice, link cells,
 * velocity Verlet, a 3-D block decomposition with a halo of ghost atoms
 * exchanged every step and atoms handed to the neighbour whose block they
 * enter.
 *
 * One source, built three times: with Open MPI (md_mpi, processes), ported
 * by the translator (md_pure, rank threads), and ported with MD_TASKS
 * defined (md_tasks), where the force loop over the link cells is a
 * PureTask (md_force_tasks.cpp). Ranks may be threads, so there are no
 * mutable globals. Every version prints the same energies at every rank
 * count (md_kernel.h says why).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md_kernel.h"
#include "md_options.h"

#ifdef MD_TASKS
#include "md_tasks.h"
#define MD_VERSION "tasks"
#elif defined(PURE_PURE_H) /* Pure's <mpi.h> includes pure/pure.h */
#define MD_VERSION "pure"
#else
#define MD_VERSION "mpi"
#endif

/* Message tags: kind + 2 * dimension + direction, direction 0 for a message
 * travelling toward lower coordinates (to the left neighbour), 1 toward
 * higher ones; so two messages between the same ranks never share a tag,
 * even when the left and right neighbour are one rank. */
enum { kTagMigrateCount = 10, kTagMigrateData = 20, kTagHaloCount = 30, kTagHaloData = 40 };

/* Doubles per atom handed over: id, position, velocity. */
enum { kMigrateDoubles = 7 };

/* The decomposition: ranks in a grid, x-major; cells per dimension; the
 * block of cells this rank owns. */
struct domain {
  int grid[3], coord[3];
  int left[3], right[3]; /* neighbour ranks, periodic */
  int cells[3];          /* G: cells of the box */
  double box[3], side[3];
  int lo[3], n[3]; /* owned cells [lo, lo + n) */
};

/* The owned atoms [0, owned) and, in x only, the ghosts after them. */
struct atoms {
  int owned, ghosts;
  int capacity;   /* of id, v, f, e */
  int x_capacity; /* of x, in atoms */
  int64_t* id;
  double *x, *v, *f, *e;
};

/* Ends the job when an MPI call fails (only reached where the error handler
 * returns instead of aborting). */
static void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "md: %s failed with error %d\n", call, rc);
    MPI_Abort(MPI_COMM_WORLD, rc);
  }
}

/* A capacity of at least `need`, growing by half. */
static int grown(int capacity, int need) {
  int next = capacity + capacity / 2;
  if (next < need) next = need;
  return next < 16 ? 16 : next;
}

/* *p resized to `count` elements of `size` bytes. */
static void resize(void** p, int count, size_t size) {
  void* q = realloc(*p, (size_t)count * size);
  if (q == NULL) {
    fprintf(stderr, "md: out of memory for %d elements of %zu bytes\n", count, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  *p = q;
}

/* Makes *p hold at least `need` elements of `size` bytes. */
static void reserve(void** p, int* capacity, int need, size_t size) {
  if (need <= *capacity) return;
  *capacity = grown(*capacity, need);
  resize(p, *capacity, size);
}

static void reserve_owned(struct atoms* a, int need) {
  if (need <= a->capacity) return;
  a->capacity = grown(a->capacity, need);
  resize((void**)&a->id, a->capacity, sizeof(int64_t));
  resize((void**)&a->v, a->capacity, 3 * sizeof(double));
  resize((void**)&a->f, a->capacity, 3 * sizeof(double));
  resize((void**)&a->e, a->capacity, sizeof(double));
}

static void reserve_positions(struct atoms* a, int need) {
  reserve((void**)&a->x, &a->x_capacity, need, 3 * sizeof(double));
}

/* Block q of p over G cells starts at cell floor(q G / p). */
static int block_first(int cells, int parts, int q) { return (int)((int64_t)cells * q / parts); }

/* The block holding cell c. */
static int block_of(int cells, int parts, int c) {
  return (int)(((int64_t)(c + 1) * parts - 1) / cells);
}

/* The grid of ranks whose blocks have the least surface (so the fewest
 * ghost cells), among those with at most G_d ranks along dimension d; ties
 * go to more ranks along x, then y. Returns 0 when no grid fits. */
static int choose_grid(int ranks, const int cells[3], int grid[3]) {
  double best = -1.0;
  for (int px = ranks; px >= 1; --px) {
    if (ranks % px != 0) continue;
    for (int py = ranks / px; py >= 1; --py) {
      if ((ranks / px) % py != 0) continue;
      const int pz = ranks / px / py;
      if (px > cells[0] || py > cells[1] || pz > cells[2]) continue;
      const double bx = (double)cells[0] / px, by = (double)cells[1] / py,
                   bz = (double)cells[2] / pz;
      const double surface = by * bz + bx * bz + bx * by;
      if (best < 0.0 || surface < best) {
        best = surface;
        grid[0] = px;
        grid[1] = py;
        grid[2] = pz;
      }
    }
  }
  return best >= 0.0;
}

static int rank_of(const int grid[3], int qx, int qy, int qz) {
  return (qx * grid[1] + qy) * grid[2] + qz;
}

/* Sets up *d for this rank; returns 0 with a message in `error` when the
 * box is too small for the cutoff or for the ranks. */
static int make_domain(const struct md_options* o, int ranks, int rank, struct domain* d,
                       char* error, size_t error_size) {
  const int64_t unit_cells[3] = {o->nx, o->ny, o->nz};
  for (int k = 0; k < 3; ++k) {
    d->box[k] = (double)unit_cells[k] * MD_LATTICE;
    d->cells[k] = (int)(d->box[k] / MD_CUTOFF);
    if (d->cells[k] < 3) {
      snprintf(error, error_size,
               "the box is %.3f A along dimension %d: at least 3 cutoffs (%.4f A) needed, "
               "so at least %d unit cells",
               d->box[k], k, 3 * MD_CUTOFF, (int)(3 * MD_CUTOFF / MD_LATTICE) + 1);
      return 0;
    }
    d->side[k] = d->box[k] / d->cells[k];
  }
  if (!choose_grid(ranks, d->cells, d->grid)) {
    snprintf(error, error_size, "%d ranks do not fit the %dx%dx%d link cells", ranks, d->cells[0],
             d->cells[1], d->cells[2]);
    return 0;
  }
  d->coord[0] = rank / (d->grid[1] * d->grid[2]);
  d->coord[1] = rank / d->grid[2] % d->grid[1];
  d->coord[2] = rank % d->grid[2];
  for (int k = 0; k < 3; ++k) {
    int lower[3] = {d->coord[0], d->coord[1], d->coord[2]};
    int upper[3] = {d->coord[0], d->coord[1], d->coord[2]};
    lower[k] = (d->coord[k] + d->grid[k] - 1) % d->grid[k];
    upper[k] = (d->coord[k] + 1) % d->grid[k];
    d->left[k] = rank_of(d->grid, lower[0], lower[1], lower[2]);
    d->right[k] = rank_of(d->grid, upper[0], upper[1], upper[2]);
    d->lo[k] = block_first(d->cells[k], d->grid[k], d->coord[k]);
    d->n[k] = block_first(d->cells[k], d->grid[k], d->coord[k] + 1) - d->lo[k];
  }
  return 1;
}

/* The global cell of a position along dimension k. */
static int cell_along(const struct domain* d, const double* x, int k) {
  return md_cell_of(x[k], d->side[k], d->cells[k]);
}

static int owns(const struct domain* d, const double* x) {
  for (int k = 0; k < 3; ++k) {
    const int c = cell_along(d, x, k);
    if (c < d->lo[k] || c >= d->lo[k] + d->n[k]) return 0;
  }
  return 1;
}

/* The crystal's atoms in this rank's block, with velocities at temperature
 * o->temp: normal deviates drawn per atom id, less their mean, scaled so the
 * kinetic energy per atom is 3/2 k T. The mean and the scale come from
 * fixed-point sums, the same for every decomposition. */
static void create_atoms(const struct md_options* o, const struct domain* d, struct atoms* a) {
  const int64_t filled = md_filled_cells(o);
  const int64_t unit_cells[3] = {filled, o->ny, o->nz};
  int64_t first[3], past[3];
  for (int k = 0; k < 3; ++k) {
    /* unit cells that may hold atoms of cells [lo, lo + n) */
    first[k] = (int64_t)((double)d->lo[k] * d->side[k] / MD_LATTICE) - 1;
    past[k] = (int64_t)((double)(d->lo[k] + d->n[k]) * d->side[k] / MD_LATTICE) + 2;
    if (first[k] < 0) first[k] = 0;
    if (past[k] > unit_cells[k]) past[k] = unit_cells[k];
  }
  a->owned = 0;
  int64_t momentum[3] = {0, 0, 0};
  for (int64_t ix = first[0]; ix < past[0]; ++ix) {
    for (int64_t iy = first[1]; iy < past[1]; ++iy) {
      for (int64_t iz = first[2]; iz < past[2]; ++iz) {
        for (int b = 0; b < 4; ++b) {
          const double x[3] = {((double)ix + md_fcc_basis[b][0]) * MD_LATTICE,
                               ((double)iy + md_fcc_basis[b][1]) * MD_LATTICE,
                               ((double)iz + md_fcc_basis[b][2]) * MD_LATTICE};
          if (!owns(d, x)) continue;
          reserve_owned(a, a->owned + 1);
          reserve_positions(a, a->owned + 1);
          const int i = a->owned++;
          a->id[i] = ((ix * o->ny + iy) * o->nz + iz) * 4 + b;
          for (int k = 0; k < 3; ++k) {
            a->x[3 * i + k] = x[k];
            a->v[3 * i + k] = md_normal((uint64_t)o->seed, a->id[i], k);
            momentum[k] += md_fixed(a->v[3 * i + k]);
          }
        }
      }
    }
  }
  const int64_t atoms = filled * o->ny * o->nz * 4;
  int64_t total[3];
  check(MPI_Allreduce(momentum, total, 3, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  double mean[3];
  for (int k = 0; k < 3; ++k) mean[k] = md_unfixed(total[k]) / (double)atoms;
  int64_t square = 0;
  for (int i = 0; i < a->owned; ++i) {
    double v2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      a->v[3 * i + k] -= mean[k];
      v2 += a->v[3 * i + k] * a->v[3 * i + k];
    }
    square += md_fixed(v2);
  }
  int64_t square_total = 0;
  check(MPI_Allreduce(&square, &square_total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  const double mean_square = md_unfixed(square_total) / (double)atoms;
  const double scale =
      mean_square > 0.0 ? sqrt(3.0 * MD_KB_EV * o->temp / (MD_MASS * mean_square)) : 0.0;
  for (int i = 0; i < 3 * a->owned; ++i) a->v[i] *= scale;
}

/* Scratch space for binning, reused every step. */
struct scratch {
  int capacity;
  int *cell, *order;
  int64_t* id;
  double *x, *v;
};

/* Sorts the owned atoms by cell, and by id within a cell, and sets every
 * owned cell's start and count (ghost cells: empty); drops the ghosts. */
static void bin_atoms(const struct domain* d, struct atoms* a, struct md_cells* c,
                      struct scratch* s) {
  const int n = a->owned;
  const int total_cells = c->ext[0] * c->ext[1] * c->ext[2];
  if (n > s->capacity) {
    s->capacity = grown(s->capacity, n);
    resize((void**)&s->cell, s->capacity, sizeof(int));
    resize((void**)&s->order, s->capacity, sizeof(int));
    resize((void**)&s->id, s->capacity, sizeof(int64_t));
    resize((void**)&s->x, s->capacity, 3 * sizeof(double));
    resize((void**)&s->v, s->capacity, 3 * sizeof(double));
  }

  memset(c->count, 0, (size_t)total_cells * sizeof(int));
  for (int i = 0; i < n; ++i) {
    const double* x = &a->x[3 * i];
    s->cell[i] = md_cell_index(c, cell_along(d, x, 0) - d->lo[0], cell_along(d, x, 1) - d->lo[1],
                               cell_along(d, x, 2) - d->lo[2]);
    ++c->count[s->cell[i]];
  }
  int next = 0;
  for (int k = 0; k < total_cells; ++k) {
    c->start[k] = next;
    next += c->count[k];
  }
  for (int k = 0; k < total_cells; ++k) c->count[k] = 0;
  for (int i = 0; i < n; ++i) {
    const int k = s->cell[i];
    int slot = c->start[k] + c->count[k]++;
    /* insertion by id: cells hold a few dozen atoms */
    while (slot > c->start[k] && a->id[s->order[slot - 1]] > a->id[i]) {
      s->order[slot] = s->order[slot - 1];
      --slot;
    }
    s->order[slot] = i;
  }
  for (int j = 0; j < n; ++j) {
    const int i = s->order[j];
    s->id[j] = a->id[i];
    memcpy(&s->x[3 * j], &a->x[3 * i], 3 * sizeof(double));
    memcpy(&s->v[3 * j], &a->v[3 * i], 3 * sizeof(double));
  }
  memcpy(a->id, s->id, (size_t)n * sizeof(int64_t));
  memcpy(a->x, s->x, (size_t)n * 3 * sizeof(double));
  memcpy(a->v, s->v, (size_t)n * 3 * sizeof(double));
  a->ghosts = 0;
}

/* Growable buffers of the exchanges, per side (0: the left neighbour, 1:
 * the right one); capacities in elements. */
struct buffers {
  double* data[2]; /* what goes to each neighbour */
  int data_capacity[2];
  int* counts[2]; /* per-cell counts going to each neighbour */
  int counts_capacity[2];
  int* counts_in[2]; /* per-cell counts coming from each */
  int counts_in_capacity[2];
  double* in; /* atoms coming in (migration) */
  int in_capacity;
};

/* The slab of cells a halo phase along `dim` sends or fills: local index
 * `layer` along dim; along a dimension already exchanged, the extended range
 * -1 .. n (its ghosts are sent on, which fills the edges and corners); along
 * one still to come, the owned range 0 .. n-1. */
struct slab {
  int lo[3], hi[3]; /* exclusive hi */
};

static struct slab slab_of(const struct md_cells* c, int dim, int layer) {
  struct slab s;
  for (int k = 0; k < 3; ++k) {
    s.lo[k] = k < dim ? -1 : 0;
    s.hi[k] = k < dim ? c->n[k] + 1 : c->n[k];
  }
  s.lo[dim] = layer;
  s.hi[dim] = layer + 1;
  return s;
}

static int slab_cells(const struct slab* s) {
  return (s->hi[0] - s->lo[0]) * (s->hi[1] - s->lo[1]) * (s->hi[2] - s->lo[2]);
}

/* Fills the ghost cells: three phases, x, y, z; in each, the first and last
 * layer of the cells known so far go to the left and right neighbours, as
 * per-cell counts and then positions, shifted by the box length where they
 * cross the periodic boundary. */
static void exchange_halo(const struct domain* d, struct atoms* a, struct md_cells* c,
                          struct buffers* b) {
  for (int dim = 0; dim < 3; ++dim) {
    const struct slab send_slab[2] = {slab_of(c, dim, 0), slab_of(c, dim, c->n[dim] - 1)};
    const struct slab fill_slab[2] = {slab_of(c, dim, -1), slab_of(c, dim, c->n[dim])};
    const int cells = slab_cells(&send_slab[0]);
    const int peer[2] = {d->left[dim], d->right[dim]};
    /* crossing the boundary: data leaving rank 0 leftward lands at the top */
    const double shift[2] = {d->coord[dim] == 0 ? d->box[dim] : 0.0,
                             d->coord[dim] == d->grid[dim] - 1 ? -d->box[dim] : 0.0};
    int sent[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
      reserve((void**)&b->counts[side], &b->counts_capacity[side], cells, sizeof(int));
      reserve((void**)&b->counts_in[side], &b->counts_in_capacity[side], cells, sizeof(int));
      const struct slab* s = &send_slab[side];
      int k = 0;
      for (int ix = s->lo[0]; ix < s->hi[0]; ++ix) {
        for (int iy = s->lo[1]; iy < s->hi[1]; ++iy) {
          for (int iz = s->lo[2]; iz < s->hi[2]; ++iz, ++k) {
            const int cell = md_cell_index(c, ix, iy, iz);
            b->counts[side][k] = c->count[cell];
            reserve((void**)&b->data[side], &b->data_capacity[side],
                    3 * (sent[side] + c->count[cell]), sizeof(double));
            for (int i = c->start[cell]; i < c->start[cell] + c->count[cell]; ++i) {
              double* out = &b->data[side][3 * sent[side]++];
              memcpy(out, &a->x[3 * i], 3 * sizeof(double));
              out[dim] += shift[side];
            }
          }
        }
      }
    }
    /* counts: side 0 receives from the left what travelled rightward */
    MPI_Request requests[4];
    check(MPI_Irecv(b->counts_in[0], cells, MPI_INT, peer[0], kTagHaloCount + 2 * dim + 1,
                    MPI_COMM_WORLD, &requests[0]),
          "MPI_Irecv");
    check(MPI_Irecv(b->counts_in[1], cells, MPI_INT, peer[1], kTagHaloCount + 2 * dim,
                    MPI_COMM_WORLD, &requests[1]),
          "MPI_Irecv");
    check(MPI_Isend(b->counts[0], cells, MPI_INT, peer[0], kTagHaloCount + 2 * dim, MPI_COMM_WORLD,
                    &requests[2]),
          "MPI_Isend");
    check(MPI_Isend(b->counts[1], cells, MPI_INT, peer[1], kTagHaloCount + 2 * dim + 1,
                    MPI_COMM_WORLD, &requests[3]),
          "MPI_Isend");
    check(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
    int incoming[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
      for (int k = 0; k < cells; ++k) incoming[side] += b->counts_in[side][k];
    }
    const int base[2] = {a->owned + a->ghosts, a->owned + a->ghosts + incoming[0]};
    reserve_positions(a, base[1] + incoming[1]);
    check(MPI_Irecv(&a->x[3 * base[0]], 3 * incoming[0], MPI_DOUBLE, peer[0],
                    kTagHaloData + 2 * dim + 1, MPI_COMM_WORLD, &requests[0]),
          "MPI_Irecv");
    check(MPI_Irecv(&a->x[3 * base[1]], 3 * incoming[1], MPI_DOUBLE, peer[1],
                    kTagHaloData + 2 * dim, MPI_COMM_WORLD, &requests[1]),
          "MPI_Irecv");
    check(MPI_Isend(b->data[0], 3 * sent[0], MPI_DOUBLE, peer[0], kTagHaloData + 2 * dim,
                    MPI_COMM_WORLD, &requests[2]),
          "MPI_Isend");
    check(MPI_Isend(b->data[1], 3 * sent[1], MPI_DOUBLE, peer[1], kTagHaloData + 2 * dim + 1,
                    MPI_COMM_WORLD, &requests[3]),
          "MPI_Isend");
    check(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (int side = 0; side < 2; ++side) {
      const struct slab* s = &fill_slab[side];
      int k = 0, next = base[side];
      for (int ix = s->lo[0]; ix < s->hi[0]; ++ix) {
        for (int iy = s->lo[1]; iy < s->hi[1]; ++iy) {
          for (int iz = s->lo[2]; iz < s->hi[2]; ++iz, ++k) {
            const int cell = md_cell_index(c, ix, iy, iz);
            c->start[cell] = next;
            c->count[cell] = b->counts_in[side][k];
            next += c->count[cell];
          }
        }
      }
    }
    a->ghosts += incoming[0] + incoming[1];
  }
}

/* Hands every atom that left this rank's block to the neighbour whose block
 * it entered: along x, then y, then z (an atom that crossed a corner travels
 * on in the next phase). An atom moves less than a cell per step, so it
 * always lands in a neighbour's block; one that does not ends the job. */
static void migrate_atoms(const struct domain* d, struct atoms* a, struct buffers* b,
                          int64_t step) {
  for (int dim = 0; dim < 3; ++dim) {
    if (d->grid[dim] == 1) continue;
    const int peer[2] = {d->left[dim], d->right[dim]};
    const int peer_coord[2] = {(d->coord[dim] + d->grid[dim] - 1) % d->grid[dim],
                               (d->coord[dim] + 1) % d->grid[dim]};
    int sent[2] = {0, 0};
    for (int i = 0; i < a->owned;) {
      const int q = block_of(d->cells[dim], d->grid[dim], cell_along(d, &a->x[3 * i], dim));
      if (q == d->coord[dim]) {
        ++i;
        continue;
      }
      const int side = q == peer_coord[0] ? 0 : 1;
      if (q != peer_coord[side]) {
        fprintf(stderr,
                "md: step %lld: atom %lld moved past the neighbouring block along dimension %d "
                "in one step; use a shorter --dt\n",
                (long long)step, (long long)a->id[i], dim);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      reserve((void**)&b->data[side], &b->data_capacity[side], kMigrateDoubles * (sent[side] + 1),
              sizeof(double));
      double* out = &b->data[side][kMigrateDoubles * sent[side]++];
      out[0] = (double)a->id[i]; /* ids stay below 2^53: exact */
      memcpy(&out[1], &a->x[3 * i], 3 * sizeof(double));
      memcpy(&out[4], &a->v[3 * i], 3 * sizeof(double));
      /* the last atom fills the hole */
      const int last = --a->owned;
      a->id[i] = a->id[last];
      memcpy(&a->x[3 * i], &a->x[3 * last], 3 * sizeof(double));
      memcpy(&a->v[3 * i], &a->v[3 * last], 3 * sizeof(double));
    }
    int incoming[2] = {0, 0};
    MPI_Request requests[4];
    check(MPI_Irecv(&incoming[0], 1, MPI_INT, peer[0], kTagMigrateCount + 2 * dim + 1,
                    MPI_COMM_WORLD, &requests[0]),
          "MPI_Irecv");
    check(MPI_Irecv(&incoming[1], 1, MPI_INT, peer[1], kTagMigrateCount + 2 * dim, MPI_COMM_WORLD,
                    &requests[1]),
          "MPI_Irecv");
    check(MPI_Isend(&sent[0], 1, MPI_INT, peer[0], kTagMigrateCount + 2 * dim, MPI_COMM_WORLD,
                    &requests[2]),
          "MPI_Isend");
    check(MPI_Isend(&sent[1], 1, MPI_INT, peer[1], kTagMigrateCount + 2 * dim + 1, MPI_COMM_WORLD,
                    &requests[3]),
          "MPI_Isend");
    check(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
    const int total = incoming[0] + incoming[1];
    reserve_owned(a, a->owned + total);
    reserve_positions(a, a->owned + total);
    reserve((void**)&b->in, &b->in_capacity, kMigrateDoubles * total, sizeof(double));
    double* in = b->in;
    check(MPI_Irecv(in, kMigrateDoubles * incoming[0], MPI_DOUBLE, peer[0],
                    kTagMigrateData + 2 * dim + 1, MPI_COMM_WORLD, &requests[0]),
          "MPI_Irecv");
    check(MPI_Irecv(in + kMigrateDoubles * incoming[0], kMigrateDoubles * incoming[1], MPI_DOUBLE,
                    peer[1], kTagMigrateData + 2 * dim, MPI_COMM_WORLD, &requests[1]),
          "MPI_Irecv");
    check(MPI_Isend(b->data[0], kMigrateDoubles * sent[0], MPI_DOUBLE, peer[0],
                    kTagMigrateData + 2 * dim, MPI_COMM_WORLD, &requests[2]),
          "MPI_Isend");
    check(MPI_Isend(b->data[1], kMigrateDoubles * sent[1], MPI_DOUBLE, peer[1],
                    kTagMigrateData + 2 * dim + 1, MPI_COMM_WORLD, &requests[3]),
          "MPI_Isend");
    check(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (int j = 0; j < total; ++j) {
      const double* atom = &in[kMigrateDoubles * j];
      const int i = a->owned++;
      a->id[i] = (int64_t)atom[0];
      memcpy(&a->x[3 * i], &atom[1], 3 * sizeof(double));
      memcpy(&a->v[3 * i], &atom[4], 3 * sizeof(double));
    }
  }
  for (int i = 0; i < a->owned; ++i) {
    if (!owns(d, &a->x[3 * i])) {
      fprintf(stderr, "md: step %lld: atom %lld left the neighbouring blocks; use a shorter --dt\n",
              (long long)step, (long long)a->id[i]);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
}

/* v += dt/2 f/m */
static void kick(struct atoms* a, double dt) {
  const double scale = 0.5 * dt / MD_MASS;
  for (int i = 0; i < 3 * a->owned; ++i) a->v[i] += scale * a->f[i];
}

/* x += dt v, wrapped into the periodic box. */
static void drift(const struct domain* d, struct atoms* a, double dt) {
  for (int i = 0; i < a->owned; ++i) {
    for (int k = 0; k < 3; ++k) {
      double x = a->x[3 * i + k] + dt * a->v[3 * i + k];
      if (x < 0.0) x += d->box[k];
      if (x >= d->box[k]) x -= d->box[k];
      a->x[3 * i + k] = x;
    }
  }
}

static uint64_t compute_forces(const struct md_cells* c, struct atoms* a, const struct md_lj* lj) {
#ifdef MD_TASKS
  return md_forces_tasks(c, a->x, a->f, a->e, lj);
#else
  return md_forces_of_cells(c, a->x, a->f, a->e, lj, 0, md_owned_cells(c));
#endif
}

/* Rank 0 prints the energies summed over all atoms. */
static void report_energies(const struct atoms* a, int64_t step, double dt, int64_t atoms,
                            int rank) {
  int64_t sums[MD_SUMS] = {0, 0};
  for (int i = 0; i < a->owned; ++i) {
    const double* v = &a->v[3 * i];
    sums[MD_SUM_POTENTIAL] += md_fixed(a->e[i]);
    sums[MD_SUM_KINETIC] += md_fixed(0.5 * MD_MASS * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  int64_t totals[MD_SUMS] = {0, 0};
  check(MPI_Reduce(sums, totals, MD_SUMS, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
  if (rank == 0) md_print_energies(step, dt, atoms, totals);
}

int main(int argc, char** argv) {
  int rank = 0, ranks = 0;
  check(MPI_Init(&argc, &argv), "MPI_Init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");

  struct md_options options;
  struct domain domain;
  char error[256] = "";
  int parsed = md_parse_options(argc, argv, &options, error, sizeof error);
  if (parsed == 0 && !make_domain(&options, ranks, rank, &domain, error, sizeof error)) parsed = 2;
  if (parsed != 0) {
    if (rank == 0 && parsed == 2) fprintf(stderr, "md: %s\n%s", error, MD_USAGE);
    if (rank == 0 && parsed == 1) printf("%s", MD_USAGE);
    check(MPI_Finalize(), "MPI_Finalize");
    return parsed == 1 ? 0 : 2;
  }
  const int64_t atoms_total = md_filled_cells(&options) * options.ny * options.nz * 4;
  const struct md_lj lj = md_lj_copper();

  struct atoms atoms;
  memset(&atoms, 0, sizeof atoms);
  struct md_cells cells;
  for (int k = 0; k < 3; ++k) {
    cells.n[k] = domain.n[k];
    cells.ext[k] = domain.n[k] + 2;
  }
  const size_t total_cells = (size_t)cells.ext[0] * cells.ext[1] * cells.ext[2];
  cells.start = calloc(total_cells, sizeof(int));
  cells.count = calloc(total_cells, sizeof(int));
  if (cells.start == NULL || cells.count == NULL) {
    fprintf(stderr, "md: out of memory for %zu cells\n", total_cells);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  struct scratch scratch;
  memset(&scratch, 0, sizeof scratch);
  struct buffers buffers;
  memset(&buffers, 0, sizeof buffers);

  create_atoms(&options, &domain, &atoms);
  bin_atoms(&domain, &atoms, &cells, &scratch);
  exchange_halo(&domain, &atoms, &cells, &buffers);
  compute_forces(&cells, &atoms, &lj);
  report_energies(&atoms, 0, options.dt, atoms_total, rank);

  uint64_t pairs = 0;
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double began = MPI_Wtime();
  for (int64_t step = 1; step <= options.steps; ++step) {
    kick(&atoms, options.dt);
    drift(&domain, &atoms, options.dt);
    migrate_atoms(&domain, &atoms, &buffers, step);
    bin_atoms(&domain, &atoms, &cells, &scratch);
    exchange_halo(&domain, &atoms, &cells, &buffers);
    pairs += compute_forces(&cells, &atoms, &lj);
    kick(&atoms, options.dt);
    if (step % options.print == 0) report_energies(&atoms, step, options.dt, atoms_total, rank);
  }
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double seconds = MPI_Wtime() - began;

  uint64_t pairs_total = 0;
  check(MPI_Reduce(&pairs, &pairs_total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD),
        "MPI_Reduce");
  if (rank == 0) {
    md_print_result(MD_VERSION, &options, atoms_total, pairs_total, seconds, ranks, domain.grid);
  }

  free(atoms.id);
  free(atoms.x);
  free(atoms.v);
  free(atoms.f);
  free(atoms.e);
  free(cells.start);
  free(cells.count);
  free(scratch.cell);
  free(scratch.order);
  free(scratch.id);
  free(scratch.x);
  free(scratch.v);
  for (int side = 0; side < 2; ++side) {
    free(buffers.data[side]);
    free(buffers.counts[side]);
    free(buffers.counts_in[side]);
  }
  free(buffers.in);
  check(MPI_Finalize(), "MPI_Finalize");
  return 0;
}
