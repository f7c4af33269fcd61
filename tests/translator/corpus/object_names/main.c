/* Predefined objects are called what the program calls them: MPI's names
 * for a program written for MPI, under Pure as under Open MPI; a name the
 * program sets is its own. Rank 0 prints them. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, len;
  char world[MPI_MAX_OBJECT_NAME], self[MPI_MAX_OBJECT_NAME], type[MPI_MAX_OBJECT_NAME];
  char mine[MPI_MAX_OBJECT_NAME];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_get_name(MPI_COMM_WORLD, world, &len);
  MPI_Comm_get_name(MPI_COMM_SELF, self, &len);
  MPI_Type_get_name(MPI_DOUBLE, type, &len);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_name(dup, "solver");
  MPI_Comm_get_name(dup, mine, &len);
  if (rank == 0) printf("%s %s %s %s (%d)\n", world, self, type, mine, len);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
