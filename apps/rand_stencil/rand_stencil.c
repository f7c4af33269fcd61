/* rand_stencil: the random-work 1-D stencil (after the load-imbalance
 * experiment of Psota & Solar-Lezama, PPoPP 2024), as a plain MPI program.
 *
 * Each rank owns a block of a global array of doubles. Every iteration it
 * exchanges one ghost cell with each neighbour (non-periodic: the ends see a
 * fixed boundary value) and computes
 *   new[i] = f(old[i-1], old[i], old[i+1], work(i, t))
 * where work(i, t), the inner iterations of the cell, follows the model in
 * stencil_kernel.h: random per cell and iteration, and with --imbalance X > 0
 * concentrated on the first cells of the array (so on the first ranks), always
 * with the same total. README.md describes the options and the output.
 *
 * One source, built twice: with Open MPI (rand_stencil_mpi, processes) and
 * with Pure's <mpi.h> and -Dmain=pure_main (rand_stencil_pure, rank threads).
 * Ranks may be threads, so there are no mutable globals.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stencil_kernel.h"
#include "stencil_options.h"

#ifdef PURE_PURE_H /* Pure's <mpi.h> includes pure/pure.h */
#define STENCIL_VERSION "pure"
#else
#define STENCIL_VERSION "mpi"
#endif

enum {
  kTagLeftward = 1,  /* a rank's first cell, sent to its left neighbour */
  kTagRightward = 2, /* a rank's last cell, sent to its right neighbour */
};

/* Ends the job when an MPI call fails (only reached where the error handler
 * returns instead of aborting). */
static void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "rand_stencil: %s failed with error %d\n", call, rc);
    MPI_Abort(MPI_COMM_WORLD, rc);
  }
}

/* Fills the ghost cells cells[-1] and cells[count] with the neighbours' edge
 * cells; MPI_PROC_NULL beyond the ends leaves the boundary value there. */
static void exchange_halo(double* cells, int64_t count, int left, int right) {
  MPI_Request requests[4];
  check(MPI_Irecv(&cells[-1], 1, MPI_DOUBLE, left, kTagRightward, MPI_COMM_WORLD, &requests[0]),
        "MPI_Irecv");
  check(MPI_Irecv(&cells[count], 1, MPI_DOUBLE, right, kTagLeftward, MPI_COMM_WORLD,
                  &requests[1]),
        "MPI_Irecv");
  check(MPI_Isend(&cells[0], 1, MPI_DOUBLE, left, kTagLeftward, MPI_COMM_WORLD, &requests[2]),
        "MPI_Isend");
  check(MPI_Isend(&cells[count - 1], 1, MPI_DOUBLE, right, kTagRightward, MPI_COMM_WORLD,
                  &requests[3]),
        "MPI_Isend");
  check(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

/* One iteration over the owned cells [first, first + count), held in
 * in[0..count) with ghosts at in[-1] and in[count]. Returns the inner
 * iterations executed. */
static uint64_t compute(const double* in, double* out, int64_t first, int64_t count, int64_t t,
                        const struct stencil_work* work) {
  uint64_t done = 0;
  double previous = STENCIL_BOUNDARY;
  for (int64_t i = 0; i < count; ++i) {
    const uint64_t k = stencil_work_of(work, first + i, t);
    previous = out[i] = stencil_point(in[i - 1], in[i], in[i + 1], k, previous);
    done += k;
  }
  return done;
}

int main(int argc, char** argv) {
  int rank = 0, ranks = 0;
  check(MPI_Init(&argc, &argv), "MPI_Init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");

  struct stencil_options options;
  const int status = stencil_job_options(argc, argv, ranks, rank, "rand_stencil", &options);
  if (status >= 0) {
    check(MPI_Finalize(), "MPI_Finalize");
    return status;
  }
  const struct stencil_work work = stencil_options_work(&options);
  const int64_t first = stencil_block_first(options.n, ranks, rank);
  const int64_t count = stencil_block_first(options.n, ranks, rank + 1) - first;
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int right = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;

  /* Two arrays of count cells plus a ghost at each end. */
  double* storage[2];
  for (int b = 0; b < 2; ++b) {
    storage[b] = malloc(((size_t)count + 2) * sizeof(double));
    if (storage[b] == NULL) {
      fprintf(stderr, "rand_stencil: rank %d: out of memory for %" PRId64 " cells\n", rank,
              count);
      MPI_Abort(MPI_COMM_WORLD, 1);
      return 1;
    }
    storage[b][0] = STENCIL_BOUNDARY;
    storage[b][count + 1] = STENCIL_BOUNDARY;
  }
  double* in = storage[0] + 1;
  double* out = storage[1] + 1;
  for (int64_t i = 0; i < count; ++i) in[i] = stencil_initial(options.seed, first + i);

  uint64_t sums[STENCIL_SUMS] = {0, 0, 0};
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double began = MPI_Wtime();
  for (int64_t t = 0; t < options.iters; ++t) {
    exchange_halo(in, count, left, right);
    sums[STENCIL_SUM_WORK] += compute(in, out, first, count, t, &work);
    double* const swap = in;
    in = out;
    out = swap;
  }
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double seconds = MPI_Wtime() - began;

  stencil_add_sums(in, first, count, sums);
  uint64_t totals[STENCIL_SUMS] = {0, 0, 0};
  check(MPI_Reduce(sums, totals, STENCIL_SUMS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD),
        "MPI_Reduce");
  if (rank == 0) stencil_print_result(STENCIL_VERSION, &options, totals, seconds, ranks);

  free(storage[0]);
  free(storage[1]);
  check(MPI_Finalize(), "MPI_Finalize");
  return 0;
}
