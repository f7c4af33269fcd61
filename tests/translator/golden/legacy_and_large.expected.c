/* What the parse header lacks or hides, and the profiling names: MPI-1's
 * removed names (Open MPI 4 turns them into static assertions), MPI-4's
 * large-count calls (Open MPI 4's header is MPI 3.1's) and PMPI_ names all
 * become Pure's calls. */
#include <pure/pure.h>

int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  int rank;
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  int a = rank, b = 2 * rank;
  PURE_Aint at[2];
  pure_address(&a, &at[0]);
  pure_get_address(&b, &at[1]);
  int lengths[2] = {1, 1};
  PURE_Datatype types[2] = {PURE_INT, PURE_INT}, pair;
  pure_type_struct(2, lengths, at, types, &pair);
  pure_type_commit(&pair);
  PURE_Aint extent, lb;
  pure_type_extent(pair, &extent);
  pure_type_lb(pair, &lb);
  PURE_Count n = 1, size;
  pure_bcast_c(PURE_BOTTOM, n, pair, 0, PURE_COMM_WORLD);
  pure_type_size_c(pair, &size);
  PURE_Datatype marked, marks[2] = {PURE_INT, PURE_UB};
  PURE_Aint where[2] = {0, 16};
  pure_type_struct(2, lengths, where, marks, &marked);
  pure_type_free(&pair);
  pure_type_free(&marked);
  pure_finalize();
  return 0;
}
