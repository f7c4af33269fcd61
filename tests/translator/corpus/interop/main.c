/* Handles kept as Fortran integers (MPI_Fint and the c2f/f2c conversions,
 * which C libraries use without any Fortran), and MPI names that a macro
 * pastes together: each must mean what it means under MPI. */
#include <mpi.h>
#include <stdio.h>

#define CALL(name) MPI_##name
#define CONSTANT(name) MPI_##name

int main(int argc, char **argv) {
  int rank, size;
  CALL(Init)(&argc, &argv);
  CALL(Comm_rank)(CONSTANT(COMM_WORLD), &rank);
  CALL(Comm_size)(MPI_COMM_WORLD, &size);

  /* Every handle kind through its integer and back. */
  MPI_Fint fcomm = MPI_Comm_c2f(MPI_COMM_WORLD);
  MPI_Comm comm = MPI_Comm_f2c(fcomm);
  int same = 0;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &same);
  MPI_Errhandler eh = MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN));
  MPI_Comm_set_errhandler(comm, eh);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Datatype pair_again = MPI_Type_f2c(MPI_Type_c2f(pair));
  MPI_Group group, group_again;
  MPI_Comm_group(comm, &group);
  group_again = MPI_Group_f2c(MPI_Group_c2f(group));
  int group_size = 0;
  MPI_Group_size(group_again, &group_size);
  MPI_Info info = MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL));

  /* A ring exchange whose requests travel as integers. */
  int out[2] = {rank, 10 * rank}, in[2] = {-1, -1};
  int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Request req[2];
  CALL(Irecv)(in, 1, pair_again, from, 5, comm, &req[0]);
  CALL(Isend)(out, 1, pair, to, 5, comm, &req[1]);
  MPI_Fint freq[2] = {MPI_Request_c2f(req[0]), MPI_Request_c2f(req[1])};
  MPI_Request back[2] = {MPI_Request_f2c(freq[0]), MPI_Request_f2c(freq[1])};
  MPI_Status st[2];
  MPI_Waitall(2, back, st);
  int null_back = MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL;

  /* A status through its Fortran form (large enough for any library's). */
  MPI_Fint fstatus[16];
  MPI_Status status;
  MPI_Status_c2f(&st[0], fstatus);
  MPI_Status_f2c(fstatus, &status);
  int count = -1;
  MPI_Get_count(&status, pair, &count);

  int sum = 0;
  MPI_Op op = MPI_Op_f2c(MPI_Op_c2f(CONSTANT(SUM)));
  CALL(Allreduce)(&in[1], &sum, 1, CONSTANT(INT), op, comm);

  int line[8] = {rank, same == MPI_IDENT, group_size, in[0], in[1], status.MPI_SOURCE,
                 status.MPI_TAG, count};
  int all[8 * 16];
  MPI_Gather(line, 8, MPI_INT, all, 8, MPI_INT, 0, comm);
  if (rank == 0) {
    for (int r = 0; r < size && r < 16; ++r)
      printf("rank %d: ident %d, group %d, got (%d, %d) from %d tag %d count %d\n", all[8 * r],
             all[8 * r + 1], all[8 * r + 2], all[8 * r + 3], all[8 * r + 4], all[8 * r + 5],
             all[8 * r + 6], all[8 * r + 7]);
    printf("sum %d, null request %d, info null %d\n", sum, null_back, info == MPI_INFO_NULL);
  }
  MPI_Group_free(&group);
  MPI_Type_free(&pair);
  CALL(Finalize)();
  return 0;
}
