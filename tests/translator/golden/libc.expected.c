#include <pure/compat.h>
/* exit, abort and the C library's hidden-state calls get per-rank forms
 * from <pure/compat.h>. */
#define _GNU_SOURCE
#include <pure/pure.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int pure_main(int argc, char **argv) {
  pure_init(&argc, &argv);
  int rank;
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  pure_srand((unsigned)rank + 1);
  pure_srandom(42);
  pure_printf("%d %ld\n", pure_rand(), pure_random());
  char text[] = "a b c";
  for (char *t = pure_strtok(text, " "); t; t = pure_strtok(NULL, " ")) pure_printf("%s\n", t);
  time_t now = 0;
  struct tm *local = pure_localtime(&now), *utc = pure_gmtime(&now);
  pure_printf("%s%s%s\n", pure_ctime(&now), pure_asctime(utc), pure_strerror(2));
  (void)local;
  if (argc > 2) pure_abort_job();
  pure_finalize();
  if (rank != 0) pure_exit(0);
  if (argc > 1) pure_exit(EXIT_FAILURE);
  return 0;
}
