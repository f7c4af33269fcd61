/* Globals belong to the rank, not the thread: a rank fills a global array
 * and sets a global scale, then threads it starts (pthreads) read them and
 * add into a global sum; as processes, each rank's threads see that rank's
 * globals and nobody else's. Rank 0 prints every rank's result. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define N 100000
#define THREADS 3

static double data[N];
double scale = 1.0;
static double partial[THREADS];
static int calls;

static void *sum_part(void *arg) {
  const int t = (int)(long)arg;
  double s = 0;
  for (int i = t; i < N; i += THREADS) s += scale * data[i];
  partial[t] = s;
  ++calls; /* the rank joins each thread before it starts the next */
  return NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; ++i) data[i] = (double)(i % 7) + rank;
  scale = 2.0 + rank;
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has set its globals */
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; ++t) {
    pthread_create(&threads[t], NULL, sum_part, (void *)t);
    pthread_join(threads[t], NULL);
  }
  double total = 0;
  for (int t = 0; t < THREADS; ++t) total += partial[t];
  double line[2] = {total, (double)calls};
  double all[2 * 64];
  MPI_Gather(line, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size && r < 64; ++r)
      printf("rank %d: threads summed %.1f in %d calls\n", r, all[2 * r], (int)all[2 * r + 1]);
  MPI_Finalize();
  return 0;
}
