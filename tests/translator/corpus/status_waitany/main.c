/* Status fields, MPI_ANY_SOURCE/MPI_ANY_TAG, get_count, and a request
 * array completed with MPI_Waitany. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (rank != 0) {
    int payload[8];
    for (int i = 0; i < rank + 1; ++i) payload[i] = rank * 1000 + i;
    MPI_Send(payload, rank + 1, MPI_INT, 0, 40 + rank, MPI_COMM_WORLD);
  } else {
    int n = size - 1;
    MPI_Request *requests = malloc(sizeof(MPI_Request) * (n + 1));
    int(*buffers)[8] = malloc(sizeof(int[8]) * (n + 1));
    char(*lines)[128] = malloc(128 * (n + 1));
    for (int i = 0; i < n; ++i)
      MPI_Irecv(buffers[i], 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                &requests[i]);
    for (int done = 0; done < n; ++done) {
      int index;
      MPI_Status status;
      MPI_Waitany(n, requests, &index, &status);
      int count;
      MPI_Get_count(&status, MPI_INT, &count);
      /* Arrival order differs from run to run; the sender does not. */
      snprintf(lines[status.MPI_SOURCE], 128, "from %d tag %d count %d first %d last %d",
               status.MPI_SOURCE, status.MPI_TAG, count, buffers[index][0],
               buffers[index][count - 1]);
      if (requests[index] != MPI_REQUEST_NULL) printf("request not reset\n");
    }
    int index;
    MPI_Waitany(n, requests, &index, MPI_STATUS_IGNORE);
    printf("after all: index is undefined: %d\n", index == MPI_UNDEFINED);
    for (int r = 1; r < size; ++r) printf("%s\n", lines[r]);
    free(requests);
    free(buffers);
    free(lines);
  }
  MPI_Status self_status;
  int token = rank;
  MPI_Sendrecv_replace(&token, 1, MPI_INT, 0, 7, 0, 7, MPI_COMM_SELF, &self_status);
  int ok = self_status.MPI_SOURCE == 0 && self_status.MPI_TAG == 7 && token == rank;
  int all_ok = 0;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("self sendrecv ok: %d\n", all_ok);
  MPI_Finalize();
  return 0;
}
