/* MPI-IO is not part of Pure. */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, "out", MPI_MODE_CREATE, MPI_INFO_NULL, &file);
  MPI_Finalize();
  return 0;
}
