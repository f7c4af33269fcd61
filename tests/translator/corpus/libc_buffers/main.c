/* Calls that return a static buffer or keep a hidden table: each rank calls
 * them with inputs of its own, waits at a barrier while the other ranks
 * make the same calls, and only then reads its results. As processes every
 * rank keeps its own; ported, each must still read its own. Rank 0 prints
 * every rank's line. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <grp.h>
#include <locale.h>
#include <mpi.h>
#include <netdb.h>
#include <pwd.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE 512

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct in_addr addr;
  addr.s_addr = htonl(0x0a000001u + (unsigned)rank); /* 10.0.0.1 + rank */
  char *dotted = inet_ntoa(addr);
  int decpt, sign, fdecpt, fsign;
  char *digits = ecvt(3.25 * (rank + 1), 6, &decpt, &sign);
  char *fixed = fcvt(-1.5 / (rank + 1), 4, &fdecpt, &fsign);
  char *radix64 = l64a(1000 + rank);
  struct passwd *pw = getpwuid(0);
  struct group *gr = getgrgid(0);
  struct hostent *host = gethostbyname("localhost");
  char *locale = setlocale(LC_NUMERIC, rank % 2 ? "C" : "POSIX");
  char key[16], value[16];
  snprintf(key, sizeof key, "k%d", rank);
  snprintf(value, sizeof value, "v%d", rank * rank);
  hcreate(16);
  ENTRY item = {key, value};
  hsearch(item, ENTER);
  int width = mblen("a", 1);

  MPI_Barrier(MPI_COMM_WORLD); /* every rank has made every call */

  ENTRY want = {key, NULL};
  ENTRY *found = hsearch(want, FIND);
  char line[LINE];
  snprintf(line, sizeof line,
           "rank %d: %s | %s e%d%c | %s e%d%c | %s | %s %s | %s | %s | %s=%s | %d", rank, dotted,
           digits, decpt, sign ? '-' : '+', fixed, fdecpt, fsign ? '-' : '+', radix64,
           pw ? pw->pw_name : "(no user 0)", gr ? gr->gr_name : "(no group 0)",
           host ? host->h_name : "(no localhost)", locale ? locale : "(null)",
           found ? found->key : "(none)", found ? (char *)found->data : "(none)", width);
  hdestroy();
  char all[LINE * 64];
  MPI_Gather(line, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size && r < 64; ++r) printf("%s\n", all + LINE * r);
  MPI_Finalize();
  return 0;
}
