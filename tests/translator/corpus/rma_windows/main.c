/* One-sided communication: an allocated window with fence-synchronised
 * puts, gets and accumulates, passive-target fetch-and-op tickets and a
 * compare-and-swap, window attributes, a cached attribute with a delete
 * callback, info hints and a window error handler. */
#include <mpi.h>
#include <stdio.h>

static int deletions;
static int handled;

static int count_delete(MPI_Win win, int keyval, void *value, void *extra) {
  (void)win, (void)keyval, (void)extra;
  deletions += *(int *)value;
  return MPI_SUCCESS;
}

static void on_error(MPI_Win *win, int *code, ...) {
  (void)win;
  int class;
  MPI_Error_class(*code, &class);
  if (class == MPI_ERR_RANK) ++handled;
}

/* Rank 0 prints every rank's value, in rank order. */
static void print_all(int rank, int size, const char *what, int value) {
  int values[64];
  MPI_Gather(&value, 1, MPI_INT, values, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  printf("%s:", what);
  for (int r = 0; r < size; ++r) printf(" %d", values[r]);
  printf("\n");
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ops", "same_op");
  int *cells;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &cells, &win);
  MPI_Info_free(&info);
  for (int i = 0; i < 4; ++i) cells[i] = 0;

  int *unit, *flavor, flag;
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  if (rank == 0)
    printf("disp_unit %d, allocated %d\n", *unit, *flavor == MPI_WIN_FLAVOR_ALLOCATE);

  /* Fence: each rank puts its rank into cell 0 of the next one and adds
   * rank + 1 into cell 1 of every rank. */
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  int next = (rank + 1) % size, mine = rank, add = rank + 1;
  MPI_Put(&mine, 1, MPI_INT, next, 0, 1, MPI_INT, win);
  for (int t = 0; t < size; ++t) MPI_Accumulate(&add, 1, MPI_INT, t, 1, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  int got;
  MPI_Get(&got, 1, MPI_INT, next, 1, 1, MPI_INT, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  print_all(rank, size, "cell0", cells[0]);
  print_all(rank, size, "cell1", cells[1]);
  print_all(rank, size, "got", got);

  /* Passive target: tickets from rank 0's cell 2, a compare-and-swap on
   * its cell 3 that exactly one rank wins. */
  MPI_Win_lock_all(0, win);
  int one = 1, ticket, zero = 0, claim = rank + 1, before;
  MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, 2, MPI_SUM, win);
  MPI_Compare_and_swap(&claim, &zero, &before, MPI_INT, 0, 3, win);
  MPI_Win_flush(0, win);
  MPI_Win_unlock_all(win);
  int tickets, winners, won = before == 0;
  MPI_Reduce(&ticket, &tickets, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&won, &winners, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("tickets sum %d (expect %d), winners %d, cell2 %d, cell3 set %d\n", tickets,
           size * (size - 1) / 2, winners, cells[2], cells[3] > 0);

  /* A cached attribute, deleted when the window is freed; a window error
   * handler that sees a bad target rank. */
  int key, value = 7 + rank;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL);
  MPI_Win_set_attr(win, key, &value);
  MPI_Errhandler handler;
  MPI_Win_create_errhandler(on_error, &handler);
  MPI_Win_set_errhandler(win, handler);
  MPI_Errhandler_free(&handler);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  int rc = MPI_Put(&mine, 1, MPI_INT, size + 5, 0, 1, MPI_INT, win);
  MPI_Win_unlock(0, win);
  MPI_Win_free(&win);
  MPI_Win_free_keyval(&key);
  print_all(rank, size, "bad rank handled", handled);
  print_all(rank, size, "put returned an error", rc != MPI_SUCCESS);
  print_all(rank, size, "deleted", deletions);
  MPI_Finalize();
  return 0;
}
