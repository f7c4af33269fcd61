/* The distributed histogram (README.md) with Pure's PGAS calls
 * (pure/pgas.h), two ways:
 *   --mode atomics  one remote atomic add per key on the owner's bin in the
 *                   symmetric heap (pure_int64_atomic_add), then a quiet;
 *   --mode am       keys are batched per owner (--batch per message) and
 *                   sent as active messages whose handler, run by the
 *                   owner, adds them to its own bins with plain stores.
 * The result line is the MPI twin's (hist.c), which it must match. */
#include <pure/pure.h>

#include "hist_kernel.h"

/* The owner's bins, for the handler, which runs on the owner's thread
 * (a default handler): per rank, so thread-local. */
static _Thread_local int64_t* t_bins = NULL;

static void add_keys(const pure_am_info_t* info, void* payload, size_t bytes) {
  (void)info;
  const long long* offsets = payload;
  for (size_t i = 0; i < bytes / sizeof(long long); ++i) ++t_bins[offsets[i]];
}

int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  const int rank = pure_my_pe(), ranks = pure_n_pes();
  struct hist_options o;
  if (!hist_parse(argc, argv, &o)) pure_abort(PURE_COMM_WORLD, 2);
  const int am = strcmp(o.mode, "am") == 0;
  int handler = -1;
  pure_am_register(add_keys, PURE_AM_DEFAULT, &handler);
  const long long per = hist_per_rank(&o, ranks);
  int64_t* bins = pure_sym_malloc((size_t)per * sizeof(int64_t));
  if (!bins) pure_abort(PURE_COMM_WORLD, 3);
  memset(bins, 0, (size_t)per * sizeof(int64_t));
  t_bins = bins;
  /* Active-message version: one batch of offsets per owner. */
  long long* batches = am ? malloc((size_t)ranks * (size_t)o.batch * sizeof(long long)) : NULL;
  int* filled = am ? calloc((size_t)ranks, sizeof(int)) : NULL;
  if (am && (!batches || !filled)) pure_abort(PURE_COMM_WORLD, 3);
  pure_barrier_all();

  const double t0 = pure_wtime();
  const long long last = hist_first_key(&o, rank + 1, ranks);
  for (long long i = hist_first_key(&o, rank, ranks); i < last; ++i) {
    const long long k = hist_key(&o, i);
    const int owner = (int)(k / per);
    if (!am) {
      pure_int64_atomic_add(&bins[k % per], 1, owner);
      continue;
    }
    long long* batch = batches + (size_t)owner * (size_t)o.batch;
    batch[filled[owner]++] = k % per;
    if (filled[owner] == o.batch) {
      pure_am_request(owner, handler, batch, (size_t)o.batch * sizeof(long long));
      filled[owner] = 0;
    }
  }
  if (am) {
    for (int owner = 0; owner < ranks; ++owner)
      if (filled[owner] > 0)
        pure_am_request(owner, handler, batches + (size_t)owner * (size_t)o.batch,
                        (size_t)filled[owner] * sizeof(long long));
    pure_am_quiet();
  }
  pure_barrier_all();
  const double seconds = pure_wtime() - t0;

  const long long first = rank * per;
  const long long n = first >= o.bins ? 0 : (o.bins - first < per ? o.bins - first : per);
  const struct hist_summary mine = hist_summarise(bins, n, first);
  struct hist_summary all = {0, 0, 0};
  pure_reduce(&mine.checksum, &all.checksum, 1, PURE_UINT64_T, PURE_SUM, 0, PURE_COMM_WORLD);
  pure_reduce(&mine.total, &all.total, 1, PURE_INT64_T, PURE_SUM, 0, PURE_COMM_WORLD);
  pure_reduce(&mine.largest, &all.largest, 1, PURE_INT64_T, PURE_MAX, 0, PURE_COMM_WORLD);
  if (rank == 0) hist_print(am ? "pgas-am" : "pgas-atomics", &o, ranks, &all, seconds);
  free(batches);
  free(filled);
  pure_barrier_all();
  pure_sym_free(bins);
  pure_finalize();
  return 0;
}
