/* The distributed histogram (README.md) in MPI one-sided form, the PGAS
 * version's twin: every rank adds one to the bin of each of its keys with
 * MPI_Accumulate (MPI_SUM on an int64_t) in the owner's window, all in one
 * lock_all epoch, then flushes. Built with Open MPI (hist_mpi) and ported
 * unchanged by purecc (hist_pure). */
#include <mpi.h>

#include "hist_kernel.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  struct hist_options o;
  if (!hist_parse(argc, argv, &o)) MPI_Abort(MPI_COMM_WORLD, 2);
  const long long per = hist_per_rank(&o, ranks);
  int64_t* bins = NULL;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)(per * (long long)sizeof(int64_t)), sizeof(int64_t), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &bins, &win);
  memset(bins, 0, (size_t)per * sizeof(int64_t));
  MPI_Barrier(MPI_COMM_WORLD);

  const double t0 = MPI_Wtime();
  const int64_t one = 1;
  MPI_Win_lock_all(0, win);
  const long long last = hist_first_key(&o, rank + 1, ranks);
  for (long long i = hist_first_key(&o, rank, ranks); i < last; ++i) {
    const long long k = hist_key(&o, i);
    MPI_Accumulate(&one, 1, MPI_INT64_T, (int)(k / per), (MPI_Aint)(k % per), 1, MPI_INT64_T,
                   MPI_SUM, win);
  }
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  /* Every rank's additions are complete; read this rank's block. */
  MPI_Win_lock_all(0, win);
  MPI_Win_sync(win);
  const long long first = rank * per;
  const long long n = first >= o.bins ? 0 : (o.bins - first < per ? o.bins - first : per);
  const struct hist_summary mine = hist_summarise(bins, n, first);
  MPI_Win_unlock_all(win);
  struct hist_summary all = {0, 0, 0};
  MPI_Reduce(&mine.checksum, &all.checksum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine.total, &all.total, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine.largest, &all.largest, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) hist_print("rma", &o, ranks, &all, seconds);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
