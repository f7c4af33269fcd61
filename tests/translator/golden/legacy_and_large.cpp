/* What the parse header lacks or hides, and the profiling names: MPI-1's
 * removed names (Open MPI 4 turns them into static assertions), MPI-4's
 * large-count calls (Open MPI 4's header is MPI 3.1's) and PMPI_ names all
 * become Pure's calls. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int a = rank, b = 2 * rank;
  MPI_Aint at[2];
  MPI_Address(&a, &at[0]);
  MPI_Get_address(&b, &at[1]);
  int lengths[2] = {1, 1};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT}, pair;
  MPI_Type_struct(2, lengths, at, types, &pair);
  MPI_Type_commit(&pair);
  MPI_Aint extent, lb;
  MPI_Type_extent(pair, &extent);
  MPI_Type_lb(pair, &lb);
  MPI_Count n = 1, size;
  MPI_Bcast_c(MPI_BOTTOM, n, pair, 0, MPI_COMM_WORLD);
  MPI_Type_size_c(pair, &size);
  MPI_Datatype marked, marks[2] = {MPI_INT, MPI_UB};
  MPI_Aint where[2] = {0, 16};
  MPI_Type_struct(2, lengths, where, marks, &marked);
  PMPI_Type_free(&pair);
  MPI_Type_free(&marked);
  MPI_Finalize();
  return 0;
}
