/* The memory of a job against its rank count: every rank starts, sends one
 * message to each neighbour on a ring (so each has the per-peer state a
 * real code makes), meets the others in a barrier and finalizes. Rank 0
 * prints its process's peak resident memory (VmHWM):
 *
 *   scale ranks=<N> process_peak_rss_kb=<KB>
 *
 * or, with --json, the same as a JSON line for tools/bench_report.py:
 *
 *   {"bench":"scale","kind":"memory","ranks":<N>,"process_peak_rss_kb":<KB>}
 *
 * Built against Open MPI (one process per rank) and against Pure's <mpi.h>
 * (one process for all ranks): tools/bench.sh scale compares the two.
 * With --max-rss-kb N, the job fails when the peak is above N (a test). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long peak_rss_kb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return kb;
}

int main(int argc, char** argv) {
  long limit = 0;
  int json = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--max-rss-kb") == 0 && i + 1 < argc) limit = strtol(argv[i + 1], NULL, 10);
    if (strcmp(argv[i], "--json") == 0) json = 1;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int out = rank, in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size,
               0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (in != (rank + size - 1) % size) {
    fprintf(stderr, "scale: rank %d received %d\n", rank, in);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank != 0) return 0;
  const long kb = peak_rss_kb();
  if (json)
    printf("{\"bench\":\"scale\",\"kind\":\"memory\",\"ranks\":%d,\"process_peak_rss_kb\":%ld}\n",
           size, kb);
  else
    printf("scale ranks=%d process_peak_rss_kb=%ld\n", size, kb);
  if (limit > 0 && kb > limit) {
    fprintf(stderr, "scale: peak resident memory %ld KB at %d ranks is over %ld KB\n", kb, size,
            limit);
    return 1;
  }
  return 0;
}
