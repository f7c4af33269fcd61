/* exit, abort and the C library's hidden-state calls get per-rank forms
 * from <pure/compat.h>. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  srand((unsigned)rank + 1);
  srandom(42);
  printf("%d %ld\n", rand(), random());
  char text[] = "a b c";
  for (char *t = strtok(text, " "); t; t = strtok(NULL, " ")) printf("%s\n", t);
  time_t now = 0;
  struct tm *local = localtime(&now), *utc = gmtime(&now);
  printf("%s%s%s\n", ctime(&now), asctime(utc), strerror(2));
  (void)local;
  if (argc > 2) abort();
  MPI_Finalize();
  if (rank != 0) exit(0);
  if (argc > 1) exit(EXIT_FAILURE);
  return 0;
}
