/* Every rank parses its own argv with getopt, getopt_long or
 * getopt_long_only -- the last argument says which: "short", "long" or
 * "long_only" -- (no optind reset, GNU argument permutation, abbreviated
 * long options, an unknown option), draws drand48, lrand48
 * and erand48 numbers after srand48(rank), and calls lgamma on negative
 * arguments and reads signgam: as processes, each rank gets exactly what
 * glibc gives a program of its own. Rank 0 prints every rank's line. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct option options[] = {
    {"size", required_argument, NULL, 's'},
    {"iterations", required_argument, NULL, 'i'},
    {"verbose", no_argument, NULL, 'v'},
    {"level", optional_argument, NULL, 'l'},
    {NULL, 0, NULL, 0},
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  char line[1024];
  int used = snprintf(line, sizeof line, "rank %d:", rank);
  long message = 0, iterations = 0;
  int verbose = 0, c, index = 0;
  const char *level = "none";
  /* The last argument picks the parser; the others are parsed. */
  const char *parser = argc > 1 ? argv[argc - 1] : "long";
  const int parsed = argc > 1 ? argc - 1 : argc;
  for (;;) {
    if (strcmp(parser, "short") == 0)
      c = getopt(parsed, argv, "s:i:vl::");
    else if (strcmp(parser, "long_only") == 0)
      c = getopt_long_only(parsed, argv, "s:i:vl::", options, &index);
    else
      c = getopt_long(parsed, argv, "s:i:vl::", options, &index);
    if (c == -1) break;
    switch (c) {
      case 's': message = atol(optarg); break;
      case 'i': iterations = atol(optarg); break;
      case 'v': ++verbose; break;
      case 'l': level = optarg ? optarg : "default"; break;
      default: used += snprintf(line + used, sizeof line - used, " bad(%c)", optopt); break;
    }
  }
  used += snprintf(line + used, sizeof line - used, " size=%ld iter=%ld v=%d level=%s rest=",
                   message, iterations, verbose, level);
  for (int i = optind; i < parsed; ++i)
    used += snprintf(line + used, sizeof line - used, "%s%s", argv[i], i + 1 < parsed ? "," : "");

  srand48(rank);
  used += snprintf(line + used, sizeof line - used, " d=%.12f l=%ld", drand48(), lrand48());
  unsigned short state[3] = {(unsigned short)rank, 0x1234, 0x330e};
  used += snprintf(line + used, sizeof line - used, " e=%.12f m=%ld", erand48(state), mrand48());
  /* Other ranks draw in between: they must not disturb this rank's state. */
  MPI_Barrier(MPI_COMM_WORLD);
  double x = -0.5 - rank;
  double g = lgamma(x);
  MPI_Barrier(MPI_COMM_WORLD);
  used += snprintf(line + used, sizeof line - used, " lgamma(%.1f)=%.9f sign=%d d=%.12f", x, g,
                   signgam, drand48());

  char *all = malloc((size_t)size * sizeof line);
  MPI_Gather(line, sizeof line, MPI_CHAR, all, sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r) printf("%s\n", all + (size_t)r * sizeof line);
  free(all);
  MPI_Finalize();
  return 0;
}
