/* One-sided communication and MPI-IO are not part of Pure (MPI_INFO_NULL is). */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Win win;
  MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, "out", MPI_MODE_CREATE, MPI_INFO_NULL, &file);
  MPI_Finalize();
  return 0;
}
