/* One-sided communication in every kind of epoch: fence with derived
 * datatypes, general active target (post/start/complete/wait, and
 * MPI_Win_test), passive target (an exclusive lock guarding a plain
 * read-modify-write, fetch_and_op, compare_and_swap, get_accumulate,
 * request-based put/get, flush and flush_local), a shared-memory window
 * read through MPI_Win_shared_query, and a dynamic window. Every line it
 * prints is the same however the ranks are spread over processes or
 * nodes, so an MPI run and any Pure layout print the same. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Rank 0 prints every rank's value, in rank order. */
static void print_all(int rank, int size, const char *what, long value) {
  long values[64];
  MPI_Gather(&value, 1, MPI_LONG, values, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  printf("%s:", what);
  for (int r = 0; r < size; ++r) printf(" %ld", values[r]);
  printf("\n");
}

/* Fence epochs moving strided data: each rank puts every other element
 * of its row into the next rank's window as a vector type, then
 * accumulates (MPI_MAX on doubles) into every rank. */
static void fence_epochs(int rank, int size) {
  enum { n = 8 };
  double *cells;
  MPI_Win win;
  MPI_Win_allocate(3 * n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &cells,
                   &win);
  for (int i = 0; i < 3 * n; ++i) cells[i] = -1;
  double row[n], high[n];
  for (int i = 0; i < n; ++i) {
    row[i] = rank * 100 + i;
    high[i] = (i % 2) ? rank : -rank;
  }
  MPI_Datatype every_other;
  MPI_Type_vector(n / 2, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  /* the even elements of row, contiguous at the target */
  MPI_Put(row, 1, every_other, next, 0, n / 2, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  /* then the odd ones, strided into the gaps the target leaves */
  MPI_Put(row + 1, 1, every_other, next, n / 2, 1, every_other, win);
  for (int t = 0; t < size; ++t)
    MPI_Accumulate(high, n, MPI_DOUBLE, t, 2 * n, n, MPI_DOUBLE, MPI_MAX, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  long even = 0, strided = 0, maxima = 0;
  for (int i = 0; i < n / 2; ++i) even += (long)cells[i];
  for (int i = 0; i < n / 2; ++i) strided += (long)cells[n / 2 + 2 * i];
  for (int i = 0; i < n; ++i) maxima = maxima * 10 + (long)cells[2 * n + i] % 10;
  print_all(rank, size, "fence: even elements from prev", even - 4 * 100 * prev);
  print_all(rank, size, "fence: strided odd elements from prev", strided - 4 * 100 * prev);
  print_all(rank, size, "fence: maxima digits", maxima);
  MPI_Type_free(&every_other);
  MPI_Win_free(&win);
}

/* General active target: a ring (each rank exposed to its left neighbour,
 * accessing its right one), then a star where rank 0 is exposed to all
 * others and finishes with MPI_Win_test. */
static void pscw_epochs(int rank, int size) {
  int *cells;
  MPI_Win win;
  MPI_Win_allocate((size + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cells,
                   &win);
  for (int i = 0; i <= size; ++i) cells[i] = -1;
  MPI_Group world, left, right, others, root;
  MPI_Win_get_group(win, &world);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Group_incl(world, 1, &prev, &left);
  MPI_Group_incl(world, 1, &next, &right);
  int zero = 0;
  MPI_Group_excl(world, 1, &zero, &others);
  MPI_Group_incl(world, 1, &zero, &root);

  int rounds = 3;
  long ring = 0;
  for (int round = 0; round < rounds; ++round) {
    MPI_Win_post(left, 0, win);
    MPI_Win_start(right, 0, win);
    int value = rank * 10 + round;
    MPI_Put(&value, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    ring = ring * 100 + cells[0];
  }
  print_all(rank, size, "pscw: ring puts from prev", ring);

  if (rank == 0) {
    if (size > 1) {
      MPI_Win_post(others, 0, win);
      int done = 0;
      while (!done) MPI_Win_test(win, &done);
    }
    long sum = 0;
    for (int r = 1; r < size; ++r) sum += cells[1 + r];
    printf("pscw: star at rank 0 got %ld (expect %ld)\n", sum, 7L * (size - 1) * size / 2);
  } else {
    MPI_Win_start(root, 0, win);
    int value = 7 * rank;
    MPI_Put(&value, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win);
    MPI_Win_complete(win);
  }
  MPI_Group_free(&world);
  MPI_Group_free(&left);
  MPI_Group_free(&right);
  MPI_Group_free(&others);
  MPI_Group_free(&root);
  MPI_Win_free(&win);
}

/* Passive target on rank 0's window. */
static void passive_epochs(int rank, int size) {
  long *cells;
  MPI_Win win;
  MPI_Win_allocate(8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &cells, &win);
  for (int i = 0; i < 8; ++i) cells[i] = 0;
  MPI_Barrier(MPI_COMM_WORLD);

  /* An exclusive lock makes a get, a local add and a put one step:
   * nothing is lost even though none of them is atomic. */
  int rounds = 5;
  for (int i = 0; i < rounds; ++i) {
    long counter;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Get(&counter, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    counter += rank + 1;
    MPI_Put(&counter, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
  }

  /* Shared lock: fetch_and_op tickets, a swap chain (MPI_REPLACE), a
   * compare_and_swap one rank wins, get_accumulate as sum and as no_op,
   * and request-based forms finished by MPI_Wait and flush_local. */
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  long one = 1, ticket, mine = rank + 1, swapped, zero = 0, claim = rank + 1, before;
  MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 1, MPI_SUM, win);
  MPI_Fetch_and_op(&mine, &swapped, MPI_LONG, 0, 2, MPI_REPLACE, win);
  MPI_Compare_and_swap(&claim, &zero, &before, MPI_LONG, 0, 3, win);
  long add[2] = {rank, 2 * rank}, old[2];
  MPI_Get_accumulate(add, 2, MPI_LONG, old, 2, MPI_LONG, 0, 4, 2, MPI_LONG, MPI_SUM, win);
  MPI_Win_flush(0, win);
  MPI_Request req[2];
  long to_put = 1000 + rank, got;
  MPI_Rput(&to_put, 1, MPI_LONG, 0, 6, 1, MPI_LONG, win, &req[0]);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_Win_flush_local(0, win);
  MPI_Win_unlock(0, win);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  MPI_Rget(&got, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win, &req[1]);
  MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  long sums[2];
  MPI_Get_accumulate(NULL, 0, MPI_LONG, sums, 2, MPI_LONG, 0, 4, 2, MPI_LONG, MPI_NO_OP, win);
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);

  long tickets, swaps, winners, won = before == 0;
  /* The swap chain: the values fetched plus the one left are each rank's
   * value once, whatever the order. */
  MPI_Reduce(&ticket, &tickets, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&swapped, &swaps, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&won, &winners, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  long expect = (long)rounds * size * (size + 1) / 2;
  print_all(rank, size, "passive: locked counter seen after all", got == expect);
  if (rank == 0)
    printf("passive: counter %ld (expect %ld), tickets %ld, swap chain %ld, winners %ld, cas "
           "value owned %d, get_accumulate sums %ld %ld, an rput landed %d\n",
           cells[0], expect, tickets, swaps + cells[2], winners, cells[3] >= 1 && cells[3] <= size,
           sums[0], sums[1], cells[6] >= 1000 && cells[6] < 1000 + size);
  MPI_Win_free(&win);
}

/* A window over the memory of the ranks that share it, each segment read
 * by a neighbour through a plain pointer. */
static void shared_window(int rank, int size) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank, node_size;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  int count = 1 + rank % 3;
  int *mine;
  MPI_Win win;
  MPI_Win_allocate_shared(count * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  for (int i = 0; i < count; ++i) mine[i] = rank * 10 + i;
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);

  /* The neighbour's segment by its pointer, and segments contiguous in
   * node rank order (no alloc_shared_noncontig). */
  int peer = (node_rank + 1) % node_size, peer_unit, first_unit;
  MPI_Aint peer_size, first_size;
  int *theirs, *first;
  MPI_Win_shared_query(win, peer, &peer_size, &peer_unit, &theirs);
  MPI_Win_shared_query(win, MPI_PROC_NULL, &first_size, &first_unit, &first);
  MPI_Group world_group, node_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(node, &node_group);
  int peer_world;
  MPI_Group_translate_ranks(node_group, 1, &peer, world_group, &peer_world);
  int peer_count = 1 + peer_world % 3, right = peer_size == (MPI_Aint)(peer_count * sizeof(int));
  for (int i = 0; i < peer_count; ++i) right = right && theirs[i] == peer_world * 10 + i;
  int *segment = first;
  for (int r = 0; r < node_rank; ++r) {
    MPI_Aint s;
    int u, *b;
    MPI_Win_shared_query(win, r, &s, &u, &b);
    segment += s / sizeof(int);
  }
  int contiguous = segment == mine && peer_unit == (int)sizeof(int);
  MPI_Win_unlock_all(win);
  print_all(rank, size, "shared: neighbour's segment read", right);
  print_all(rank, size, "shared: segments contiguous", contiguous);
  MPI_Group_free(&world_group);
  MPI_Group_free(&node_group);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
}

/* A dynamic window: memory attached after creation, addressed by its
 * absolute address. */
static void dynamic_window(int rank, int size) {
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  long *slots = calloc(size, sizeof(long));
  MPI_Win_attach(win, slots, size * sizeof(long));
  MPI_Aint here, *addresses = malloc(size * sizeof(MPI_Aint));
  MPI_Get_address(slots, &here);
  MPI_Allgather(&here, 1, MPI_AINT, addresses, 1, MPI_AINT, MPI_COMM_WORLD);
  MPI_Win_fence(0, win);
  long value = 3 * rank + 1;
  for (int t = 0; t < size; ++t)
    MPI_Put(&value, 1, MPI_LONG, t, addresses[t] + rank * sizeof(long), 1, MPI_LONG, win);
  MPI_Win_fence(0, win);
  long sum = 0;
  for (int r = 0; r < size; ++r) sum += slots[r] * (r + 1);
  print_all(rank, size, "dynamic: weighted sum of slots", sum);
  MPI_Win_detach(win, slots);
  MPI_Win_free(&win);
  free(slots);
  free(addresses);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);
  fence_epochs(rank, size);
  pscw_epochs(rank, size);
  passive_epochs(rank, size);
  shared_window(rank, size);
  dynamic_window(rank, size);
  MPI_Finalize();
  return 0;
}
