/* strtok, gmtime/asctime and strerror keep hidden state; with ranks as
 * threads each rank must still see only its own. The ranks interleave
 * their strtok calls through barriers. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char text[64];
  snprintf(text, sizeof text, "r%d-a,r%d-b,r%d-c,r%d-d", rank, rank, rank, rank);
  char out[256] = "";
  char *token = strtok(text, ",");
  for (int i = 0; i < 4; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    strcat(out, token ? token : "(null)");
    strcat(out, " ");
    token = strtok(NULL, ",");
    MPI_Barrier(MPI_COMM_WORLD);
  }
  time_t when = (time_t)86400 * (365 + rank);
  struct tm *utc = gmtime(&when);
  MPI_Barrier(MPI_COMM_WORLD);
  strcat(out, asctime(utc));
  out[strlen(out) - 1] = ' ';
  strcat(out, strerror(rank % 2 ? ENOENT : EACCES));
  char all[256 * 64];
  MPI_Gather(out, 256, MPI_CHAR, all, 256, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r) printf("%s\n", all + 256 * r);
  MPI_Finalize();
  return 0;
}
