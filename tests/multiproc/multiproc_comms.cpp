// Communicators beyond the basics in a job spread over several processes,
// run by ctest through purerun like multiproc_check: intercommunicators
// (their point-to-point, every collective, blocking, nonblocking and
// persistent, merge and dup) between groups
// that lie in one process each, that span processes, and of one rank;
// communicators created by a group alone (only the members call, other
// ranks create their own at the same time), and the node's communicator
// (MPI_COMM_TYPE_SHARED) with a shared window across its processes; and
// process topologies with
// the neighbourhood collectives, where neighbours are in this process and
// in others. A failed check names the rank, the check and the values and
// ends the job with exit code 1. On success rank 0 prints
// "multiproc_comms MODE: ok (N ranks, P processes)".
//
//   multiproc_comms inter | group | topo
#include <pure/pure.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.h"

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

int index_of(const std::vector<int>& g, int world) {
  return static_cast<int>(std::find(g.begin(), g.end(), world) - g.begin());
}

// The byte at position i of a message from world rank `from` to `to`.
unsigned char pattern(int from, int to, std::size_t i) {
  return static_cast<unsigned char>(from * 31 + to * 17 + i * 13 + (i >> 8));
}

// ---------------------------------------------------------------- inter

// An intercommunicator between group A and group B of the world, and the
// world ranks of each in group order.
struct Pair {
  PURE_Comm local = PURE_COMM_NULL, inter = PURE_COMM_NULL;
  bool in_a = false;
  std::vector<int> a, b;
  const std::vector<int>& mine() const { return in_a ? a : b; }
  const std::vector<int>& theirs() const { return in_a ? b : a; }
};

// A is the even ranks (low < 0) or the ranks below `low`.
Pair make_pair_of(int low) {
  Pair p;
  for (int r = 0; r < g_size; ++r) ((low < 0 ? r % 2 == 0 : r < low) ? p.a : p.b).push_back(r);
  p.in_a = low < 0 ? g_rank % 2 == 0 : g_rank < low;
  OK(pure_comm_split(PURE_COMM_WORLD, p.in_a ? 0 : 1, g_rank, &p.local));
  OK(pure_intercomm_create(p.local, 0, PURE_COMM_WORLD, p.in_a ? p.b[0] : p.a[0], 40 + low,
                           &p.inter));
  return p;
}

void inter_query(const Pair& p) {
  int flag = 0, lsize = -1, rsize = -1, lrank = -1;
  OK(pure_comm_test_inter(p.inter, &flag));
  OK(pure_comm_size(p.inter, &lsize));
  OK(pure_comm_rank(p.inter, &lrank));
  OK(pure_comm_remote_size(p.inter, &rsize));
  CHECK(flag == 1 && lsize == static_cast<int>(p.mine().size()) &&
            rsize == static_cast<int>(p.theirs().size()) && lrank == index_of(p.mine(), g_rank),
        "inter: test_inter %d size %d remote size %d rank %d", flag, lsize, rsize, lrank);
  PURE_Group remote, world;
  OK(pure_comm_remote_group(p.inter, &remote));
  OK(pure_comm_group(PURE_COMM_WORLD, &world));
  std::vector<int> ranks(at(rsize)), worlds(at(rsize), -1);
  for (int i = 0; i < rsize; ++i) ranks[at(i)] = i;
  OK(pure_group_translate_ranks(remote, rsize, ranks.data(), world, worlds.data()));
  CHECK(worlds == p.theirs(), "inter: remote group's first world rank %d", worlds[0]);
  OK(pure_group_free(&remote));
  OK(pure_group_free(&world));
}

// Every member sends to every member of the other group, eager and
// rendezvous sizes, and receives from each by its rank in that group.
void inter_p2p(const Pair& p) {
  const std::vector<int>& other = p.theirs();
  const int n = static_cast<int>(other.size());
  for (std::size_t bytes : {std::size_t{8}, std::size_t{100000}}) {
    std::vector<std::vector<unsigned char>> out(at(n)), in(at(n));
    std::vector<PURE_Request> reqs(at(n));
    for (int j = 0; j < n; ++j) {
      out[at(j)].resize(bytes);
      for (std::size_t i = 0; i < bytes; ++i) out[at(j)][i] = pattern(g_rank, other[at(j)], i);
      OK(pure_isend(out[at(j)].data(), static_cast<int>(bytes), PURE_BYTE, j, 3, p.inter,
                    &reqs[at(j)]));
    }
    for (int j = n - 1; j >= 0; --j) {
      in[at(j)].assign(bytes, 0);
      PURE_Status st;
      OK(pure_recv(in[at(j)].data(), static_cast<int>(bytes), PURE_BYTE, j, 3, p.inter, &st));
      CHECK(st.MPI_SOURCE == j, "inter p2p: source %d, expected %d", st.MPI_SOURCE, j);
      for (std::size_t i = 0; i < bytes; ++i)
        CHECK(in[at(j)][i] == pattern(other[at(j)], g_rank, i),
              "inter p2p: %zu bytes from %d, byte %zu is %d", bytes, j, i, in[at(j)][i]);
    }
    OK(pure_waitall(n, reqs.data(), PURE_STATUSES_IGNORE));
  }
}

// bcast, reduce, gather and scatter rooted at the last member of each group.
void inter_rooted(const Pair& p) {
  const int me = index_of(p.mine(), g_rank);
  for (bool root_in_a : {true, false}) {
    const std::vector<int>& root_group = root_in_a ? p.a : p.b;
    const std::vector<int>& other = root_in_a ? p.b : p.a;
    const int root = static_cast<int>(root_group.size()) - 1;
    const int n_other = static_cast<int>(other.size());
    const bool in_root_group = p.in_a == root_in_a, is_root = in_root_group && me == root;
    const int arg = in_root_group ? (is_root ? PURE_ROOT : PURE_PROC_NULL) : root;

    std::vector<double> buf(5000, -1.0);
    if (is_root)
      for (int i = 0; i < 5000; ++i) buf[at(i)] = i * 0.25 + root_group[at(root)];
    OK(pure_bcast(buf.data(), 5000, PURE_DOUBLE, arg, p.inter));
    for (int i = 0; i < 5000; ++i)
      CHECK(buf[at(i)] == (!in_root_group ? i * 0.25 + root_group[at(root)]
                                          : is_root ? i * 0.25 + root_group[at(root)] : -1.0),
            "inter bcast: element %d is %g", i, buf[at(i)]);

    long long mine[2] = {g_rank, 1}, sum[2] = {-1, -1};
    OK(pure_reduce(mine, sum, 2, PURE_LONG_LONG, PURE_SUM, arg, p.inter));
    if (is_root) {
      long long s = 0;
      for (int w : other) s += w;
      CHECK(sum[0] == s && sum[1] == n_other, "inter reduce: %lld %lld, expected %lld %d", sum[0],
            sum[1], s, n_other);
    }

    int send2[2] = {g_rank, g_rank + 1000};
    std::vector<int> all(at(2 * n_other), -1);
    OK(pure_gather(send2, 2, PURE_INT, all.data(), 2, PURE_INT, arg, p.inter));
    if (is_root)
      for (int k = 0; k < n_other; ++k)
        CHECK(all[at(2 * k)] == other[at(k)] && all[at(2 * k + 1)] == other[at(k)] + 1000,
              "inter gather: block %d is %d %d", k, all[at(2 * k)], all[at(2 * k + 1)]);

    std::vector<int> blocks(at(2 * n_other));
    for (int k = 0; k < 2 * n_other; ++k) blocks[at(k)] = 7 * k + root_group[at(root)];
    int got[2] = {-1, -1};
    OK(pure_scatter(blocks.data(), 2, PURE_INT, got, 2, PURE_INT, arg, p.inter));
    if (!in_root_group)
      CHECK(got[0] == 7 * (2 * me) + root_group[at(root)] &&
                got[1] == 7 * (2 * me + 1) + root_group[at(root)],
            "inter scatter: got %d %d", got[0], got[1]);
  }
}

// barrier, allreduce, allgather, alltoall and reduce_scatter_block: each
// group gets what the other group gave.
void inter_all(const Pair& p, PURE_Comm inter) {
  const int me = index_of(p.mine(), g_rank);
  const std::vector<int>& other = p.theirs();
  const int n_other = static_cast<int>(other.size()), n_mine = static_cast<int>(p.mine().size());
  OK(pure_barrier(inter));

  int v = g_rank + 1, s = -1, expect = 0;
  for (int w : other) expect += w + 1;
  OK(pure_allreduce(&v, &s, 1, PURE_INT, PURE_SUM, inter));
  CHECK(s == expect, "inter allreduce: %d, expected %d", s, expect);

  std::vector<int> all(at(n_other), -1);
  OK(pure_allgather(&g_rank, 1, PURE_INT, all.data(), 1, PURE_INT, inter));
  CHECK(all == other, "inter allgather: first %d", all[0]);

  std::vector<int> out(at(n_other)), in(at(n_other), -1);
  for (int j = 0; j < n_other; ++j) out[at(j)] = g_rank * 1000 + other[at(j)];
  OK(pure_alltoall(out.data(), 1, PURE_INT, in.data(), 1, PURE_INT, inter));
  for (int j = 0; j < n_other; ++j)
    CHECK(in[at(j)] == other[at(j)] * 1000 + g_rank, "inter alltoall: block %d is %d", j,
          in[at(j)]);

  // The other group's sums, spread over this group (rcount each).
  const int rcount = 2 * n_other;
  std::vector<int> contrib(at(rcount * n_mine)), block(at(rcount), -1);
  for (int i = 0; i < rcount * n_mine; ++i) contrib[at(i)] = g_rank + i;
  OK(pure_reduce_scatter_block(contrib.data(), block.data(), rcount, PURE_INT, PURE_SUM, inter));
  int other_sum = 0;
  for (int w : other) other_sum += w;
  for (int i = 0; i < rcount; ++i)
    CHECK(block[at(i)] == other_sum + n_other * (me * rcount + i),
          "inter reduce_scatter_block: element %d is %d", i, block[at(i)]);
}

// The same as requests, nonblocking and persistent (started twice):
// allreduce, allgather of blocks past the eager size, alltoall, and a
// reduce with its root in either group.
void inter_requests(const Pair& p) {
  const std::vector<int>& other = p.theirs();
  const int n_other = static_cast<int>(other.size());
  const int m = 3000;
  int v = g_rank + 1, s = -1, expect = 0;
  for (int w : other) expect += w + 1;
  std::vector<int> mine(at(m)), all(at(m * n_other), -1), out(at(n_other)), in(at(n_other), -1);
  for (int i = 0; i < m; ++i) mine[at(i)] = g_rank * 10000 + i;
  for (int j = 0; j < n_other; ++j) out[at(j)] = g_rank * 1000 + other[at(j)];
  PURE_Request reqs[5];
  OK(pure_iallreduce(&v, &s, 1, PURE_INT, PURE_SUM, p.inter, &reqs[0]));
  OK(pure_iallgather(mine.data(), m, PURE_INT, all.data(), m, PURE_INT, p.inter, &reqs[1]));
  OK(pure_ialltoall(out.data(), 1, PURE_INT, in.data(), 1, PURE_INT, p.inter, &reqs[2]));
  // Reduce to the first member of A, then to the first of B.
  int red[2] = {-1, -1};
  for (int g = 0; g < 2; ++g) {
    const bool root_group = (g == 0) == p.in_a;
    const int root = !root_group ? 0 : index_of(p.mine(), g_rank) == 0 ? PURE_ROOT : PURE_PROC_NULL;
    OK(pure_ireduce(&v, &red[g], 1, PURE_INT, PURE_SUM, root, p.inter, &reqs[3 + g]));
  }
  for (int k = 5; k-- > 0;) OK(pure_wait(&reqs[k], PURE_STATUS_IGNORE));
  CHECK(s == expect, "inter iallreduce: %d, expected %d", s, expect);
  for (int j = 0; j < n_other; ++j) {
    CHECK(in[at(j)] == other[at(j)] * 1000 + g_rank, "inter ialltoall: block %d is %d", j, in[at(j)]);
    for (int i = 0; i < m; ++i)
      CHECK(all[at(j * m + i)] == other[at(j)] * 10000 + i, "inter iallgather: block %d item %d", j, i);
  }
  const int at_root = p.in_a ? 0 : 1;  // the reduce whose root is this group's first member
  if (index_of(p.mine(), g_rank) == 0)
    CHECK(red[at_root] == expect, "inter ireduce at the root: %d, expected %d", red[at_root], expect);
  PURE_Request r;
  OK(pure_allreduce_init(&v, &s, 1, PURE_INT, PURE_SUM, p.inter, PURE_INFO_NULL, &r));
  for (int run = 0; run < 2; ++run) {
    s = -1;
    v = g_rank + 1 + run;
    OK(pure_start(&r));
    OK(pure_wait(&r, PURE_STATUS_IGNORE));
    CHECK(s == expect + run * n_other, "inter persistent allreduce run %d: %d", run, s);
  }
  OK(pure_request_free(&r));
}

// Merged with A low: A's members first, then B's, each in group order.
void inter_merge(const Pair& p) {
  PURE_Comm merged;
  OK(pure_intercomm_merge(p.inter, p.in_a ? 0 : 1, &merged));
  int mrank = -1, msize = -1;
  OK(pure_comm_rank(merged, &mrank));
  OK(pure_comm_size(merged, &msize));
  std::vector<int> order(at(msize), -1), want(p.a);
  want.insert(want.end(), p.b.begin(), p.b.end());
  OK(pure_allgather(&g_rank, 1, PURE_INT, order.data(), 1, PURE_INT, merged));
  CHECK(msize == g_size && order == want && want[at(mrank)] == g_rank,
        "merge: size %d rank %d, member 0 is %d", msize, mrank, order[0]);
  int sum = 0;
  OK(pure_allreduce(&mrank, &sum, 1, PURE_INT, PURE_SUM, merged));
  CHECK(sum == g_size * (g_size - 1) / 2, "merge allreduce: %d", sum);
  OK(pure_comm_free(&merged));
}

void run_inter() {
  // Even and odd ranks span every process; a lower and an upper half lie in
  // a process each when ranks fill processes in order; a group of one.
  for (int low : {-1, g_size / 2, 1}) {
    Pair p = make_pair_of(low);
    inter_query(p);
    inter_p2p(p);
    inter_rooted(p);
    inter_all(p, p.inter);
    inter_requests(p);
    PURE_Comm dup;
    OK(pure_comm_dup(p.inter, &dup));
    inter_all(p, dup);
    OK(pure_comm_free(&dup));
    // The nonblocking duplicate, its request completed by a wait.
    PURE_Request r;
    OK(pure_comm_idup(p.inter, &dup, &r));
    OK(pure_wait(&r, PURE_STATUS_IGNORE));
    inter_query(Pair{p.local, dup, p.in_a, p.a, p.b});
    inter_p2p(Pair{p.local, dup, p.in_a, p.a, p.b});
    inter_all(p, dup);
    OK(pure_comm_free(&dup));
    inter_merge(p);
    OK(pure_comm_free(&p.inter));
    OK(pure_comm_free(&p.local));
  }
  OK(pure_barrier(PURE_COMM_WORLD));
}

// ---------------------------------------------------------------- group

// Checks a communicator whose members are `members` (world ranks in rank
// order): its rank, a ring of 100000-byte messages, allreduce, bcast and
// allgather.
void check_members(PURE_Comm comm, const std::vector<int>& members, const char* what) {
  int rank = -1, size = -1;
  OK(pure_comm_rank(comm, &rank));
  OK(pure_comm_size(comm, &size));
  CHECK(size == static_cast<int>(members.size()) && rank == index_of(members, g_rank),
        "%s: size %d rank %d", what, size, rank);
  const std::size_t bytes = 100000;
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  std::vector<unsigned char> out(bytes), in(bytes, 0);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = pattern(g_rank, members[at(to)], i);
  OK(pure_sendrecv(out.data(), static_cast<int>(bytes), PURE_BYTE, to, 9, in.data(),
                   static_cast<int>(bytes), PURE_BYTE, from, 9, comm, PURE_STATUS_IGNORE));
  for (std::size_t i = 0; i < bytes; ++i)
    CHECK(in[i] == pattern(members[at(from)], g_rank, i), "%s ring: byte %zu is %d", what, i,
          in[i]);
  int sum = -1, expect = 0;
  for (int w : members) expect += w;
  OK(pure_allreduce(&g_rank, &sum, 1, PURE_INT, PURE_SUM, comm));
  CHECK(sum == expect, "%s allreduce: %d, expected %d", what, sum, expect);
  int root_world = rank == size - 1 ? g_rank : -1;
  OK(pure_bcast(&root_world, 1, PURE_INT, size - 1, comm));
  CHECK(root_world == members.back(), "%s bcast: %d", what, root_world);
  std::vector<int> all(at(size), -1);
  OK(pure_allgather(&g_rank, 1, PURE_INT, all.data(), 1, PURE_INT, comm));
  CHECK(all == members, "%s allgather: first %d", what, all[0]);
}

// The node is a level: MPI_COMM_TYPE_SHARED groups the ranks of every
// process on it (these tests' processes share one node), and a shared
// window on that communicator spans the processes: each rank stores into
// its part, and loads every other rank's through pure_win_shared_query,
// under lock_all and then between fences with puts.
void check_node() {
  PURE_Comm node;
  OK(pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_SHARED, g_rank, PURE_INFO_NULL, &node));
  int size = -1, rank = -1;
  OK(pure_comm_size(node, &size));
  OK(pure_comm_rank(node, &rank));
  CHECK(size == g_size && rank == g_rank, "node: size %d rank %d of a node with all %d ranks", size,
        rank, g_size);
  long long* part = nullptr;
  PURE_Win win;
  OK(pure_win_allocate_shared(2 * sizeof(long long), sizeof(long long), PURE_INFO_NULL, node,
                              &part, &win));
  OK(pure_win_lock_all(0, win));
  part[0] = 1000 + g_rank;
  part[1] = -g_rank;
  OK(pure_win_sync(win));
  OK(pure_barrier(node));
  OK(pure_win_sync(win));
  for (int r = 0; r < size; ++r) {
    long long* base = nullptr;
    PURE_Aint bytes = 0;
    int unit = 0;
    OK(pure_win_shared_query(win, r, &bytes, &unit, &base));
    CHECK(bytes == 16 && unit == 8 && base && base[0] == 1000 + r && base[1] == -r,
          "node window: rank %d's part: %td bytes, unit %d, holds %lld %lld", r,
          static_cast<std::ptrdiff_t>(bytes), unit, base ? base[0] : -1, base ? base[1] : -1);
  }
  OK(pure_win_unlock_all(win));
  // Fence epochs: each rank puts into its right neighbour's part and
  // stores into its own; after the fence every rank loads both.
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  OK(pure_win_fence(0, win));
  const long long mine = 5000 + rank;
  OK(pure_put(&mine, 1, PURE_LONG_LONG, right, 1, 1, PURE_LONG_LONG, win));
  part[0] = 7000 + rank;
  OK(pure_win_fence(0, win));
  CHECK(part[0] == 7000 + rank && part[1] == 5000 + left,
        "node window after a fence: %lld %lld, not %d %d", part[0], part[1], 7000 + rank,
        5000 + left);
  long long* theirs = nullptr;
  PURE_Aint bytes = 0;
  int unit = 0;
  OK(pure_win_shared_query(win, right, &bytes, &unit, &theirs));
  CHECK(theirs[0] == 7000 + right && theirs[1] == 5000 + rank,
        "node window: rank %d's part after a fence: %lld %lld", right, theirs[0], theirs[1]);
  OK(pure_win_fence(0, win));
  OK(pure_barrier(node));
  OK(pure_win_free(&win));
  OK(pure_comm_free(&node));
}

void run_group() {
  PURE_Group world;
  OK(pure_comm_group(PURE_COMM_WORLD, &world));
  // Every rank but those at 1 mod 3, in reverse, and the rest in order:
  // each group creates its communicator at the same time as the other,
  // only its members calling, with the same tag.
  std::vector<int> first, second;
  for (int r = g_size - 1; r >= 0; --r)
    if (r % 3 != 1) first.push_back(r);
  for (int r = 0; r < g_size; ++r)
    if (r % 3 == 1) second.push_back(r);
  const bool in_first = g_rank % 3 != 1;
  const std::vector<int>& mine = in_first ? first : second;
  for (int round = 0; round < 3; ++round) {
    PURE_Group group;
    OK(pure_group_incl(world, static_cast<int>(mine.size()), mine.data(), &group));
    PURE_Comm comm = PURE_COMM_NULL;
    OK(pure_comm_create_group(PURE_COMM_WORLD, group, 5, &comm));
    CHECK(comm != PURE_COMM_NULL, "create_group: no communicator in round %d", round);
    check_members(comm, mine, in_first ? "create_group (first)" : "create_group (second)");
    // A group of the created communicator, created from it: its upper
    // half (ranks of `comm`), the lower half calling nothing.
    const int n = static_cast<int>(mine.size()), half = n / 2;
    int rank = -1;
    OK(pure_comm_rank(comm, &rank));
    if (rank >= half) {
      PURE_Group comm_group, upper;
      OK(pure_comm_group(comm, &comm_group));
      int range[1][3] = {{half, n - 1, 1}};
      OK(pure_group_range_incl(comm_group, 1, range, &upper));
      PURE_Comm nested = PURE_COMM_NULL;
      OK(pure_comm_create_group(comm, upper, 6 + round, &nested));
      check_members(nested, std::vector<int>(mine.begin() + half, mine.end()), "nested create_group");
      OK(pure_comm_free(&nested));
      OK(pure_group_free(&upper));
      OK(pure_group_free(&comm_group));
    }
    OK(pure_comm_free(&comm));
    OK(pure_group_free(&group));
  }
  OK(pure_group_free(&world));
  check_node();
  OK(pure_barrier(PURE_COMM_WORLD));
}

// ---------------------------------------------------------------- topo

// On a grid: each neighbour's block, checked against the rank it comes from;
// PURE_PROC_NULL slots stay untouched.
void check_grid(PURE_Comm cart, int ndims) {
  int rank = -1;
  OK(pure_comm_rank(cart, &rank));
  std::vector<int> nbr;
  for (int d = 0; d < ndims; ++d) {
    int s, t;
    OK(pure_cart_shift(cart, d, 1, &s, &t));
    nbr.push_back(s);
    nbr.push_back(t);
  }
  const int k = 2 * ndims;
  std::vector<int> got(at(k), -1);
  OK(pure_neighbor_allgather(&rank, 1, PURE_INT, got.data(), 1, PURE_INT, cart));
  for (int i = 0; i < k; ++i)
    CHECK(got[at(i)] == (nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)]),
          "cart neighbor_allgather: slot %d is %d, neighbour %d", i, got[at(i)], nbr[at(i)]);
  // What a neighbour sends towards this rank is its block for the opposite
  // direction; 3000 ints each, past the eager size.
  const int m = 3000;
  std::vector<int> out(at(k * m)), in(at(k * m), -1);
  for (int j = 0; j < k; ++j)
    for (int e = 0; e < m; ++e) out[at(j * m + e)] = rank * 100000 + j * 10000 + e;
  OK(pure_neighbor_alltoall(out.data(), m, PURE_INT, in.data(), m, PURE_INT, cart));
  for (int i = 0; i < k; ++i)
    for (int e = 0; e < m; ++e)
      CHECK(in[at(i * m + e)] ==
                (nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)] * 100000 + (i ^ 1) * 10000 + e),
            "cart neighbor_alltoall: slot %d element %d is %d, neighbour %d", i, e,
            in[at(i * m + e)], nbr[at(i)]);
  // The same as a nonblocking call and as a persistent one (started twice),
  // both in flight with a blocking one.
  PURE_Request reqs[2];
  std::vector<int> in2(in.size(), -1), in3(in.size(), -1);
  OK(pure_ineighbor_alltoall(out.data(), m, PURE_INT, in2.data(), m, PURE_INT, cart, &reqs[0]));
  OK(pure_neighbor_alltoall_init_c(out.data(), m, PURE_INT, in3.data(), m, PURE_INT, cart,
                                   PURE_INFO_NULL, &reqs[1]));
  for (int run = 0; run < 2; ++run) {
    std::fill(in3.begin(), in3.end(), -1);
    OK(pure_start(&reqs[1]));
    std::vector<int> again(got.size(), -1);
    OK(pure_neighbor_allgather(&rank, 1, PURE_INT, again.data(), 1, PURE_INT, cart));
    CHECK(again == got, "cart neighbor_allgather among requests: slot 0 is %d", again[0]);
    OK(pure_waitall(run == 0 ? 2 : 1, run == 0 ? reqs : &reqs[1], PURE_STATUSES_IGNORE));
    CHECK(in3 == in, "cart persistent neighbor_alltoall_c run %d differs", run);
  }
  CHECK(in2 == in, "cart ineighbor_alltoall differs from the blocking call");
  OK(pure_request_free(&reqs[1]));
}

void run_topo() {
  // A 2-d grid, periodic in its first dimension only.
  int dims[2] = {0, 0}, periods[2] = {1, 0};
  OK(pure_dims_create(g_size, 2, dims));
  PURE_Comm cart;
  OK(pure_cart_create(PURE_COMM_WORLD, 2, dims, periods, 0, &cart));
  int coords[2] = {-1, -1}, back = -1;
  OK(pure_cart_coords(cart, g_rank, 2, coords));
  OK(pure_cart_rank(cart, coords, &back));
  CHECK(coords[0] == g_rank / dims[1] && coords[1] == g_rank % dims[1] && back == g_rank,
        "cart coords (%d, %d) of a %dx%d grid, rank back %d", coords[0], coords[1], dims[0],
        dims[1], back);
  check_grid(cart, 2);
  // Its columns (first dimension kept): a ring across processes.
  const int remain[2] = {1, 0};
  PURE_Comm column;
  OK(pure_cart_sub(cart, remain, &column));
  std::vector<int> members;
  for (int i = 0; i < dims[0]; ++i) members.push_back(i * dims[1] + coords[1]);
  check_members(column, members, "cart_sub column");
  check_grid(column, 1);
  OK(pure_comm_free(&column));
  OK(pure_comm_free(&cart));

  // A graph: a ring with chords to the ranks half-way round either way
  // (symmetric, as neighbourhood collectives on a graph need).
  std::vector<int> index, edges;
  const int h = g_size / 2;
  for (int r = 0; r < g_size; ++r) {
    std::vector<int> e;
    for (int d : {-1, 1, h, -h}) {
      const int q = ((r + d) % g_size + g_size) % g_size;
      if (q != r && std::find(e.begin(), e.end(), q) == e.end()) e.push_back(q);
    }
    edges.insert(edges.end(), e.begin(), e.end());
    index.push_back(static_cast<int>(edges.size()));
  }
  PURE_Comm graph;
  OK(pure_graph_create(PURE_COMM_WORLD, g_size, index.data(), edges.data(), 0, &graph));
  int count = -1;
  OK(pure_graph_neighbors_count(graph, g_rank, &count));
  std::vector<int> nbrs(at(count), -1), got(at(count), -1);
  OK(pure_graph_neighbors(graph, g_rank, count, nbrs.data()));
  const int begin = g_rank == 0 ? 0 : index[at(g_rank - 1)];
  CHECK(count == index[at(g_rank)] - begin &&
            std::equal(nbrs.begin(), nbrs.end(), edges.begin() + begin),
        "graph neighbours: %d", count);
  OK(pure_neighbor_allgather(&g_rank, 1, PURE_INT, got.data(), 1, PURE_INT, graph));
  CHECK(got == nbrs, "graph neighbor_allgather: first %d, neighbour %d", got[0], nbrs[0]);
  OK(pure_comm_free(&graph));

  // A distributed graph: each rank sends to the next two and hears from the
  // previous two (one of each at two ranks), j+1 ints to its j-th target.
  const int reach = g_size >= 3 ? 2 : 1;
  std::vector<int> sources, targets;
  for (int j = 1; j <= reach; ++j) {
    sources.push_back((g_rank + g_size - j) % g_size);
    targets.push_back((g_rank + j) % g_size);
  }
  PURE_Comm dg;
  OK(pure_dist_graph_create_adjacent(PURE_COMM_WORLD, reach, sources.data(), PURE_UNWEIGHTED,
                                     reach, targets.data(), PURE_UNWEIGHTED, PURE_INFO_NULL, 0,
                                     &dg));
  std::vector<int> sc(at(reach)), sd(at(reach)), rc(at(reach)), rd(at(reach));
  int st = 0, rt = 0;
  for (int j = 0; j < reach; ++j) {
    sc[at(j)] = rc[at(j)] = (j + 1) * 1000;
    sd[at(j)] = st;
    rd[at(j)] = rt + 1;  // a gap before each block
    st += sc[at(j)];
    rt += rc[at(j)] + 1;
  }
  std::vector<int> vout(at(st)), vin(at(rt), -1);
  for (int j = 0; j < reach; ++j)
    for (int e = 0; e < sc[at(j)]; ++e) vout[at(sd[at(j)] + e)] = g_rank * 100000 + j * 10000 + e;
  OK(pure_neighbor_alltoallv(vout.data(), sc.data(), sd.data(), PURE_INT, vin.data(), rc.data(),
                             rd.data(), PURE_INT, dg));
  for (int j = 0; j < reach; ++j) {
    CHECK(vin[at(rd[at(j)] - 1)] == -1, "dist graph: gap before block %d written", j);
    for (int e = 0; e < rc[at(j)]; ++e)
      CHECK(vin[at(rd[at(j)] + e)] == sources[at(j)] * 100000 + j * 10000 + e,
            "dist graph neighbor_alltoallv: block %d element %d is %d", j, e,
            vin[at(rd[at(j)] + e)]);
  }
  OK(pure_comm_free(&dg));
  OK(pure_barrier(PURE_COMM_WORLD));
}

}  // namespace

extern "C" int pure_main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "inter";
  OK(pure_init(&argc, &argv));
  pure_comm_rank(PURE_COMM_WORLD, &g_rank);
  pure_comm_size(PURE_COMM_WORLD, &g_size);
  if (mode == "inter") run_inter();
  else if (mode == "group") run_group();
  else if (mode == "topo") run_topo();
  else {
    std::fprintf(stderr, "multiproc_comms: unknown mode '%s'\n", mode.c_str());
    return 2;
  }
  OK(pure_finalize());
  if (g_rank == 0) {
    const char* procs = std::getenv("PURE_PROCS");
    std::printf("multiproc_comms %s: ok (%d ranks, %s processes)\n", mode.c_str(), g_size,
                procs ? procs : "1");
  }
  return 0;
}
