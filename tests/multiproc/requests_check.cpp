// multiproc_check requests: nonblocking and persistent collectives (several in flight,
// completed in reverse order, mixed with point-to-point, on the world and
// on a communicator split across processes, outstanding on several
// communicators across blocking collectives), comm_idup, persistent sends
// and receives of every mode, matched probes from every rank with
// wildcards, cancelled sends, isendrecv and generalized requests, with
// peers in this process and in others. Every byte is checked.
#include <pure/pure.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "check.h"

namespace {

long long value(int r, int i, int salt) { return (r + 1) * 1000003LL + i * 7 + salt * 131; }
long long sum_values(int lo, int hi, int i, int salt) {
  long long s = 0;
  for (int r = lo; r <= hi; ++r) s += value(r, i, salt);
  return s;
}

// Every nonblocking collective on `comm`, completed in reverse order, with
// a ring of point-to-point messages in flight among them.
void collectives(PURE_Comm comm, int count, int salt) {
  int me, n;
  pure_comm_rank(comm, &me);
  pure_comm_size(comm, &n);
  const std::size_t nn = static_cast<std::size_t>(n), cc = static_cast<std::size_t>(count);
  const int root = n / 2;
  std::vector<PURE_Request> reqs;
  PURE_Request r = PURE_REQUEST_NULL;
  auto add = [&](int rc) {
    CHECK(rc == PURE_SUCCESS, "starting a collective: %d", rc);
    reqs.push_back(r);
  };
  add(pure_ibarrier(comm, &r));
  std::vector<long long> in(cc), bc(cc), red(cc, -1), all(cc, -1), scan(cc, -1), exscan(cc, -1);
  for (int i = 0; i < count; ++i) {
    in[static_cast<std::size_t>(i)] = value(me, i, salt);
    bc[static_cast<std::size_t>(i)] = me == root ? value(root, i, salt + 1) : -1;
  }
  add(pure_ibcast(bc.data(), count, PURE_LONG_LONG, root, comm, &r));
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  std::vector<long long> ring_out(cc), ring_in(cc, -1);
  for (int i = 0; i < count; ++i) ring_out[static_cast<std::size_t>(i)] = value(me, i, salt + 2);
  add(pure_irecv(ring_in.data(), count, PURE_LONG_LONG, left, salt, comm, &r));
  add(pure_isend(ring_out.data(), count, PURE_LONG_LONG, right, salt, comm, &r));
  add(pure_ireduce(in.data(), red.data(), count, PURE_LONG_LONG, PURE_SUM, root, comm, &r));
  add(pure_iallreduce(in.data(), all.data(), count, PURE_LONG_LONG, PURE_SUM, comm, &r));
  add(pure_iscan(in.data(), scan.data(), count, PURE_LONG_LONG, PURE_SUM, comm, &r));
  add(pure_iexscan(in.data(), exscan.data(), count, PURE_LONG_LONG, PURE_SUM, comm, &r));
  std::vector<long long> gathered(nn * cc, -1), allg(nn * cc, -1), a2a_out(nn * cc), a2a_in(nn * cc, -1);
  std::vector<long long> to_scatter(nn * cc), scattered(cc, -1);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < count; ++i) {
      const std::size_t at = static_cast<std::size_t>(k) * cc + static_cast<std::size_t>(i);
      a2a_out[at] = value(me, k * count + i, salt + 3);
      to_scatter[at] = value(k, i, salt + 4);
    }
  add(pure_igather(in.data(), count, PURE_LONG_LONG, gathered.data(), count, PURE_LONG_LONG, root,
                   comm, &r));
  add(pure_iscatter(to_scatter.data(), count, PURE_LONG_LONG, scattered.data(), count,
                    PURE_LONG_LONG, root, comm, &r));
  add(pure_iallgather(in.data(), count, PURE_LONG_LONG, allg.data(), count, PURE_LONG_LONG, comm,
                      &r));
  add(pure_ialltoall(a2a_out.data(), count, PURE_LONG_LONG, a2a_in.data(), count, PURE_LONG_LONG,
                     comm, &r));
  // v and w forms: k + 1 items from member k, a gap of one between blocks.
  std::vector<int> counts(nn), displs(nn), bytes(nn);
  int total = 0;
  for (int k = 0; k < n; ++k) {
    counts[static_cast<std::size_t>(k)] = k + 1;
    displs[static_cast<std::size_t>(k)] = total + 1;
    bytes[static_cast<std::size_t>(k)] = (total + 1) * 8;
    total += k + 2;
  }
  std::vector<long long> vin(static_cast<std::size_t>(me + 1));
  for (int i = 0; i <= me; ++i) vin[static_cast<std::size_t>(i)] = value(me, i, salt + 5);
  std::vector<long long> gv(static_cast<std::size_t>(total), -1), agv(gv);
  add(pure_igatherv(vin.data(), me + 1, PURE_LONG_LONG, gv.data(), counts.data(), displs.data(),
                    PURE_LONG_LONG, root, comm, &r));
  add(pure_iallgatherv(vin.data(), me + 1, PURE_LONG_LONG, agv.data(), counts.data(),
                       displs.data(), PURE_LONG_LONG, comm, &r));
  // alltoallw: me + 1 items to everyone, k + 1 from member k.
  std::vector<int> wsc(nn, me + 1), wsd(nn), wrc(counts), wrd(bytes);
  std::vector<PURE_Datatype> types(nn, PURE_LONG_LONG);
  std::vector<long long> wout(nn * static_cast<std::size_t>(me + 1)), win(static_cast<std::size_t>(total), -1);
  for (int k = 0; k < n; ++k) {
    wsd[static_cast<std::size_t>(k)] = k * (me + 1) * 8;
    for (int i = 0; i <= me; ++i)
      wout[static_cast<std::size_t>(k * (me + 1) + i)] = value(me, k * 50 + i, salt + 6);
  }
  add(pure_ialltoallw(wout.data(), wsc.data(), wsd.data(), types.data(), win.data(), wrc.data(),
                      wrd.data(), types.data(), comm, &r));
  std::vector<long long> rs_in(nn * cc), rs_out(cc, -1);
  for (std::size_t i = 0; i < rs_in.size(); ++i) rs_in[i] = value(me, static_cast<int>(i), salt + 7);
  add(pure_ireduce_scatter_block(rs_in.data(), rs_out.data(), count, PURE_LONG_LONG, PURE_SUM, comm,
                                 &r));

  for (std::size_t k = reqs.size(); k-- > 0;) OK(pure_wait(&reqs[k], PURE_STATUS_IGNORE));

  for (int i = 0; i < count; ++i) {
    const std::size_t ii = static_cast<std::size_t>(i);
    CHECK(bc[ii] == value(root, i, salt + 1), "ibcast element %d: %lld", i, bc[ii]);
    CHECK(ring_in[ii] == value(left, i, salt + 2), "ring element %d: %lld", i, ring_in[ii]);
    if (me == root) CHECK(red[ii] == sum_values(0, n - 1, i, salt), "ireduce element %d", i);
    CHECK(all[ii] == sum_values(0, n - 1, i, salt), "iallreduce element %d: %lld", i, all[ii]);
    CHECK(scan[ii] == sum_values(0, me, i, salt), "iscan element %d: %lld", i, scan[ii]);
    if (me > 0) CHECK(exscan[ii] == sum_values(0, me - 1, i, salt), "iexscan element %d", i);
    CHECK(scattered[ii] == value(me, i, salt + 4), "iscatter element %d", i);
    CHECK(rs_out[ii] == sum_values(0, n - 1, me * count + i, salt + 7),
          "ireduce_scatter_block element %d", i);
    for (int k = 0; k < n; ++k) {
      const std::size_t at = static_cast<std::size_t>(k) * cc + ii;
      if (me == root) CHECK(gathered[at] == value(k, i, salt), "igather from %d, element %d", k, i);
      CHECK(allg[at] == value(k, i, salt), "iallgather from %d, element %d", k, i);
      CHECK(a2a_in[at] == value(k, me * count + i, salt + 3), "ialltoall from %d, element %d", k, i);
    }
  }
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    CHECK(agv[static_cast<std::size_t>(displs[kk] - 1)] == -1, "iallgatherv wrote into a gap");
    for (int i = 0; i <= k; ++i) {
      const std::size_t at = static_cast<std::size_t>(displs[kk] + i);
      if (me == root) CHECK(gv[at] == value(k, i, salt + 5), "igatherv from %d, element %d", k, i);
      CHECK(agv[at] == value(k, i, salt + 5), "iallgatherv from %d, element %d", k, i);
      CHECK(win[at] == value(k, me * 50 + i, salt + 6), "ialltoallw from %d, element %d", k, i);
    }
  }
}

// A non-commutative op (2x2 integer matrices modulo a prime, multiplied in
// rank order) through iallreduce and iscan.
void matmul(void* in, void* inout, int* len, PURE_Datatype*) {
  auto* a = static_cast<long long*>(in);
  auto* b = static_cast<long long*>(inout);
  const long long p = 1000003;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    const long long c0 = (a[0] * b[0] + a[1] * b[2]) % p, c1 = (a[0] * b[1] + a[1] * b[3]) % p;
    const long long c2 = (a[2] * b[0] + a[3] * b[2]) % p, c3 = (a[2] * b[1] + a[3] * b[3]) % p;
    b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
  }
}

void noncommutative() {
  PURE_Datatype m;
  OK(pure_type_contiguous(4, PURE_LONG_LONG, &m));
  OK(pure_type_commit(&m));
  PURE_Op op;
  OK(pure_op_create(matmul, 0, &op));
  auto of = [](int r) { return std::vector<long long>{r + 1, 1, r % 3, 2}; };
  std::vector<long long> mine = of(g_rank), all(4), scan(4);
  PURE_Request q[2];
  OK(pure_iallreduce(mine.data(), all.data(), 1, m, op, PURE_COMM_WORLD, &q[0]));
  OK(pure_iscan(mine.data(), scan.data(), 1, m, op, PURE_COMM_WORLD, &q[1]));
  OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
  std::vector<long long> want = of(0);
  for (int r = 1; r < g_size; ++r) {
    std::vector<long long> next = of(r);
    int one = 1;
    matmul(want.data(), next.data(), &one, nullptr);  // next = want * next
    want = next;
    if (r == g_rank)
      for (int i = 0; i < 4; ++i) CHECK(scan[static_cast<std::size_t>(i)] == want[static_cast<std::size_t>(i)], "iscan entry %d", i);
  }
  for (int i = 0; i < 4; ++i) CHECK(all[static_cast<std::size_t>(i)] == want[static_cast<std::size_t>(i)], "iallreduce entry %d", i);
  OK(pure_op_free(&op));
  OK(pure_type_free(&m));
}

void idup() {
  PURE_Comm dup = PURE_COMM_NULL, dup2 = PURE_COMM_NULL;
  PURE_Request q[3];
  int one = 1, sum = 0;
  OK(pure_comm_idup(PURE_COMM_WORLD, &dup, &q[0]));
  OK(pure_iallreduce(&one, &sum, 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD, &q[1]));
  OK(pure_comm_idup(PURE_COMM_WORLD, &dup2, &q[2]));
  OK(pure_waitall(3, q, PURE_STATUSES_IGNORE));
  CHECK(sum == g_size, "allreduce beside the idups: %d", sum);
  CHECK(dup != PURE_COMM_NULL && dup2 != PURE_COMM_NULL, "idup gave no communicator");
  collectives(dup, 5, 40);
  // Blocking collectives and point-to-point on the duplicate.
  OK(pure_allreduce(&one, &sum, 1, PURE_INT, PURE_SUM, dup2));
  CHECK(sum == g_size, "allreduce on the duplicate: %d", sum);
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  int a = -1, b = -1;
  PURE_Request p[4];
  OK(pure_irecv(&b, 1, PURE_INT, left, 9, dup2, &p[0]));
  OK(pure_irecv(&a, 1, PURE_INT, left, 9, dup, &p[1]));
  const int va = g_rank, vb = g_rank + 1000;
  OK(pure_isend(&vb, 1, PURE_INT, right, 9, dup2, &p[2]));
  OK(pure_isend(&va, 1, PURE_INT, right, 9, dup, &p[3]));
  OK(pure_waitall(4, p, PURE_STATUSES_IGNORE));
  CHECK(a == left && b == left + 1000, "messages mixed up between duplicates: %d %d", a, b);
  OK(pure_comm_free(&dup));
  OK(pure_comm_free(&dup2));
}

// Persistent sends and receives of every mode around the ring, restarted
// several times from buffers whose contents change between rounds; the
// receives are started first and a barrier says so, as the ready send needs.
void persistent() {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  const int count = 20000;  // larger than the eager limit
  constexpr int kModes = 4;  // standard, synchronous, buffered, ready
  const int counts[kModes] = {count, 4, 300, count};
  std::vector<char> attached(1 << 20);
  OK(pure_buffer_attach(attached.data(), static_cast<int>(attached.size())));
  std::vector<std::vector<int>> out(kModes), in(kModes);
  PURE_Request sends[kModes], recvs[kModes];
  for (int m = 0; m < kModes; ++m) {
    out[static_cast<std::size_t>(m)].resize(static_cast<std::size_t>(counts[m]));
    in[static_cast<std::size_t>(m)].resize(static_cast<std::size_t>(counts[m]));
    // Odd modes receive from any source: only the left neighbour sends them.
    OK(pure_recv_init(in[static_cast<std::size_t>(m)].data(), counts[m], PURE_INT,
                      m % 2 ? PURE_ANY_SOURCE : left, 3 + m, PURE_COMM_WORLD, &recvs[m]));
  }
  OK(pure_send_init(out[0].data(), counts[0], PURE_INT, right, 3, PURE_COMM_WORLD, &sends[0]));
  OK(pure_ssend_init(out[1].data(), counts[1], PURE_INT, right, 4, PURE_COMM_WORLD, &sends[1]));
  OK(pure_bsend_init(out[2].data(), counts[2], PURE_INT, right, 5, PURE_COMM_WORLD, &sends[2]));
  OK(pure_rsend_init(out[3].data(), counts[3], PURE_INT, right, 6, PURE_COMM_WORLD, &sends[3]));
  for (int round = 0; round < 5; ++round) {
    for (int m = 0; m < kModes; ++m)
      for (int i = 0; i < counts[m]; ++i) {
        out[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)] = g_rank * 7 + i + round * 1000 + m;
        in[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)] = -1;
      }
    OK(pure_startall(kModes, recvs));
    OK(pure_barrier(PURE_COMM_WORLD));
    if (round % 2) {
      OK(pure_startall(kModes, sends));
    } else {
      for (PURE_Request& q : sends) OK(pure_start(&q));
    }
    PURE_Status st[kModes];
    OK(pure_waitall(kModes, recvs, st));
    OK(pure_waitall(kModes, sends, PURE_STATUSES_IGNORE));
    for (int m = 0; m < kModes; ++m) {
      CHECK(sends[m] != PURE_REQUEST_NULL && recvs[m] != PURE_REQUEST_NULL,
            "persistent requests of mode %d were freed", m);
      int got = -1;
      OK(pure_get_count(&st[m], PURE_INT, &got));
      CHECK(st[m].MPI_SOURCE == left && st[m].MPI_TAG == 3 + m && got == counts[m],
            "mode %d: source %d tag %d count %d", m, st[m].MPI_SOURCE, st[m].MPI_TAG, got);
      for (int i = 0; i < counts[m]; ++i)
        CHECK(in[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)] == left * 7 + i + round * 1000 + m,
              "mode %d round %d element %d", m, round, i);
    }
  }
  for (int m = 0; m < kModes; ++m) {
    OK(pure_request_free(&sends[m]));
    OK(pure_request_free(&recvs[m]));
  }
  void* back = nullptr;
  int back_size = 0;
  OK(pure_buffer_detach(&back, &back_size));
}

// Matched probes from every rank to every other, K messages each of sizes
// on both sides of the eager limit: each rank takes them all by mprobe and
// improbe of any source and any tag, receives them alternately with mrecv
// and imrecv, and sees each sender's in order, every byte right.
void matched_all_to_all() {
  constexpr int K = 4;
  auto bytes_of = [](int from, int to, int k) {
    return static_cast<std::size_t>((from * 7 + to * 3 + k) % 3 == 0 ? 40000 + k : 8 + from + k);
  };
  auto byte_at = [](int from, int k, std::size_t i) {
    return static_cast<char>((from * 31 + k * 17 + static_cast<int>(i % 251)) & 0x7f);
  };
  std::vector<std::vector<char>> out;
  std::vector<PURE_Request> sends;
  out.reserve(static_cast<std::size_t>(K * g_size));
  for (int k = 0; k < K; ++k)
    for (int step = 1; step < g_size; ++step) {
      const int to = (g_rank + step) % g_size;
      std::vector<char> msg(bytes_of(g_rank, to, k));
      for (std::size_t i = 0; i < msg.size(); ++i) msg[i] = byte_at(g_rank, k, i);
      out.push_back(std::move(msg));
      sends.emplace_back();
      OK(pure_isend(out.back().data(), static_cast<int>(out.back().size()), PURE_BYTE, to, 200 + k,
                    PURE_COMM_WORLD, &sends.back()));
    }
  std::vector<int> next(static_cast<std::size_t>(g_size), 0);
  for (int m = 0; m < K * (g_size - 1); ++m) {
    PURE_Message msg = PURE_MESSAGE_NULL;
    PURE_Status st;
    if (m % 2) {
      int flag = 0;
      while (!flag) OK(pure_improbe(PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_WORLD, &flag, &msg, &st));
    } else {
      OK(pure_mprobe(PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_WORLD, &msg, &st));
    }
    const int from = st.MPI_SOURCE;
    CHECK(from >= 0 && from < g_size && from != g_rank, "matched probe source %d", from);
    const int k = next[static_cast<std::size_t>(from)]++;
    CHECK(st.MPI_TAG == 200 + k, "from %d: tag %d, not %d: out of order", from, st.MPI_TAG, 200 + k);
    const std::size_t bytes = bytes_of(from, g_rank, k);
    int count = -1;
    OK(pure_get_count(&st, PURE_BYTE, &count));
    CHECK(count == static_cast<int>(bytes), "from %d #%d: %d bytes, not %zu", from, k, count, bytes);
    std::vector<char> in(bytes + 4, 0);
    if (m % 3) {
      OK(pure_mrecv(in.data(), static_cast<int>(in.size()), PURE_BYTE, &msg, &st));
    } else {
      PURE_Request r;
      OK(pure_imrecv(in.data(), static_cast<int>(in.size()), PURE_BYTE, &msg, &r));
      OK(pure_wait(&r, &st));
    }
    CHECK(msg == PURE_MESSAGE_NULL, "the receive left the message handle");
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 200 + k, "received source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    for (std::size_t i = 0; i < bytes; ++i)
      CHECK(in[i] == byte_at(from, k, i), "from %d #%d byte %zu", from, k, i);
  }
  OK(pure_waitall(static_cast<int>(sends.size()), sends.data(), PURE_STATUSES_IGNORE));
  // Every send completed before the barrier; no message of this exchange
  // is left (the next check's messages may be, under their own tags).
  OK(pure_barrier(PURE_COMM_WORLD));
  for (int k = 0; k < K; ++k) {
    int flag = 1;
    PURE_Status st;
    OK(pure_iprobe(PURE_ANY_SOURCE, 200 + k, PURE_COMM_WORLD, &flag, &st));
    CHECK(!flag, "a message from %d tag %d was left over", st.MPI_SOURCE, st.MPI_TAG);
  }
}

// Matched probes: every rank sends two messages to its right neighbour; the
// neighbour takes them by mprobe and improbe (any source, any tag), receives
// them with mrecv and imrecv, and sees them in order.
void matched() {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  std::vector<int> big(30000), small(3);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = g_rank + static_cast<int>(i);
  for (int i = 0; i < 3; ++i) small[static_cast<std::size_t>(i)] = g_rank * 10 + i;
  PURE_Request s[2];
  OK(pure_isend(big.data(), 30000, PURE_INT, right, 11, PURE_COMM_WORLD, &s[0]));
  OK(pure_isend(small.data(), 3, PURE_INT, right, 12, PURE_COMM_WORLD, &s[1]));
  PURE_Message m = PURE_MESSAGE_NULL;
  PURE_Status st;
  OK(pure_mprobe(left, PURE_ANY_TAG, PURE_COMM_WORLD, &m, &st));
  int count = 0;
  OK(pure_get_count(&st, PURE_INT, &count));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 11 && count == 30000, "mprobe: source %d tag %d count %d",
        st.MPI_SOURCE, st.MPI_TAG, count);
  std::vector<int> got(30000, -1);
  OK(pure_mrecv(got.data(), 30000, PURE_INT, &m, &st));
  CHECK(m == PURE_MESSAGE_NULL, "mrecv left the message handle");
  for (std::size_t i = 0; i < got.size(); ++i)
    CHECK(got[i] == left + static_cast<int>(i), "mrecv element %zu", i);
  int flag = 0;
  while (!flag) OK(pure_improbe(PURE_ANY_SOURCE, 12, PURE_COMM_WORLD, &flag, &m, &st));
  CHECK(st.MPI_SOURCE == left, "improbe source %d", st.MPI_SOURCE);
  std::vector<int> got_small(3, -1);
  PURE_Request r;
  OK(pure_imrecv(got_small.data(), 3, PURE_INT, &m, &r));
  OK(pure_wait(&r, &st));
  for (int i = 0; i < 3; ++i) CHECK(got_small[static_cast<std::size_t>(i)] == left * 10 + i, "imrecv %d", i);
  OK(pure_waitall(2, s, PURE_STATUSES_IGNORE));
  OK(pure_mprobe(PURE_PROC_NULL, 0, PURE_COMM_WORLD, &m, &st));
  CHECK(m == PURE_MESSAGE_NO_PROC && st.MPI_SOURCE == PURE_PROC_NULL, "mprobe of PURE_PROC_NULL");
  OK(pure_mrecv(nullptr, 0, PURE_INT, &m, &st));
}

// A send nobody receives yet is cancelled: a small synchronous one and a
// standard one above the eager limit. Whether the library underneath could
// cancel it (Open MPI cannot cancel sends to other processes; within a
// process Pure always can) or not, the send completes, and the receiver gets
// the message exactly when it was not cancelled, every byte of it.
void cancel_send() {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  for (const int count : {1, 20000}) {
    const int tag = count == 1 ? 21 : 23;
    std::vector<int> payload(static_cast<std::size_t>(count)), got(static_cast<std::size_t>(count), -1);
    for (int i = 0; i < count; ++i) payload[static_cast<std::size_t>(i)] = g_rank * 3 + i + 5;
    PURE_Request send, recv;
    if (count == 1) {
      OK(pure_issend(payload.data(), count, PURE_INT, right, tag, PURE_COMM_WORLD, &send));
    } else {
      OK(pure_isend(payload.data(), count, PURE_INT, right, tag, PURE_COMM_WORLD, &send));
    }
    OK(pure_cancel(&send));
    // The receive is posted only after every send was cancelled.
    OK(pure_barrier(PURE_COMM_WORLD));
    OK(pure_irecv(got.data(), count, PURE_INT, left, tag, PURE_COMM_WORLD, &recv));
    PURE_Status st;
    OK(pure_wait(&send, &st));
    int cancelled = -1, left_cancelled = -1;
    OK(pure_test_cancelled(&st, &cancelled));
    OK(pure_sendrecv(&cancelled, 1, PURE_INT, right, 22, &left_cancelled, 1, PURE_INT, left, 22,
                     PURE_COMM_WORLD, PURE_STATUS_IGNORE));
    if (left_cancelled) OK(pure_cancel(&recv));
    OK(pure_wait(&recv, &st));
    int recv_cancelled = -1;
    OK(pure_test_cancelled(&st, &recv_cancelled));
    CHECK(recv_cancelled == left_cancelled,
          "%d ints: the send from %d was %scancelled but its receive %s", count, left,
          left_cancelled ? "" : "not ", recv_cancelled ? "was cancelled" : "got a message");
    for (int i = 0; i < count; ++i) {
      const int want = left_cancelled ? -1 : left * 3 + i + 5;
      CHECK(got[static_cast<std::size_t>(i)] == want, "%d ints, element %d: %d, not %d", count, i,
            got[static_cast<std::size_t>(i)], want);
    }
  }
}

// Nonblocking collectives outstanding on the world, a duplicate and the
// odd/even split at once, while the ranks run blocking collectives and
// point-to-point on the same communicators; completed through waitsome and
// testany in whatever order they finish.
void overlapped() {
  PURE_Comm dup, half;
  OK(pure_comm_dup(PURE_COMM_WORLD, &dup));
  OK(pure_comm_split(PURE_COMM_WORLD, g_rank % 2, g_size - g_rank, &half));
  int hme = -1, hsize = -1;
  OK(pure_comm_rank(half, &hme));
  OK(pure_comm_size(half, &hsize));
  // The half's members in world ranks: my parity, the largest first.
  std::vector<int> members;
  for (int w = g_size - 1; w >= 0; --w)
    if (w % 2 == g_rank % 2) members.push_back(w);
  CHECK(static_cast<int>(members.size()) == hsize && members[static_cast<std::size_t>(hme)] == g_rank,
        "split: rank %d of %d", hme, hsize);
  for (const int count : {2, 6000}) {
    const std::size_t cc = static_cast<std::size_t>(count), nn = static_cast<std::size_t>(g_size);
    const int root = g_size - 1, right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
    std::vector<PURE_Request> reqs;
    PURE_Request r;
    auto add = [&](int rc) {
      CHECK(rc == PURE_SUCCESS, "starting a collective: %d", rc);
      reqs.push_back(r);
    };
    std::vector<long long> in(cc), bc(cc), sum(cc, -1), hmax(cc, -1), scan(cc, -1);
    for (int i = 0; i < count; ++i) {
      in[static_cast<std::size_t>(i)] = value(g_rank, i, 70);
      bc[static_cast<std::size_t>(i)] = g_rank == root ? value(root, i, 71) : -1;
    }
    std::vector<long long> allg(nn * cc, -1), hout(static_cast<std::size_t>(hsize) * cc),
        hin(static_cast<std::size_t>(hsize) * cc, -1);
    for (std::size_t k = 0; k < hout.size(); ++k) hout[k] = value(g_rank, static_cast<int>(k), 72);
    add(pure_ibcast(bc.data(), count, PURE_LONG_LONG, root, PURE_COMM_WORLD, &r));
    add(pure_iallreduce(in.data(), sum.data(), count, PURE_LONG_LONG, PURE_SUM, dup, &r));
    add(pure_ialltoall(hout.data(), count, PURE_LONG_LONG, hin.data(), count, PURE_LONG_LONG, half, &r));
    add(pure_ibarrier(PURE_COMM_WORLD, &r));
    add(pure_iallgather(in.data(), count, PURE_LONG_LONG, allg.data(), count, PURE_LONG_LONG, dup, &r));
    add(pure_iallreduce(in.data(), hmax.data(), count, PURE_LONG_LONG, PURE_MAX, half, &r));

    std::vector<long long> bsum(cc, -1), bbc(cc), ball(nn * cc, -1);
    OK(pure_allreduce(in.data(), bsum.data(), count, PURE_LONG_LONG, PURE_SUM, PURE_COMM_WORLD));
    for (int i = 0; i < count; ++i) bbc[static_cast<std::size_t>(i)] = hme == 0 ? value(g_rank, i, 73) : -1;
    OK(pure_bcast(bbc.data(), count, PURE_LONG_LONG, 0, half));
    OK(pure_allgather(in.data(), count, PURE_LONG_LONG, ball.data(), count, PURE_LONG_LONG, dup));
    std::vector<long long> got(cc, -1), got2(cc, -1);
    OK(pure_sendrecv(in.data(), count, PURE_LONG_LONG, right, 0, got.data(), count, PURE_LONG_LONG,
                     left, 0, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
    OK(pure_sendrecv(in.data(), count, PURE_LONG_LONG, left, 0, got2.data(), count, PURE_LONG_LONG,
                     PURE_ANY_SOURCE, PURE_ANY_TAG, dup, PURE_STATUS_IGNORE));
    OK(pure_barrier(dup));
    add(pure_iscan(in.data(), scan.data(), count, PURE_LONG_LONG, PURE_SUM, PURE_COMM_WORLD, &r));
    add(pure_ibarrier(half, &r));

    std::size_t done = 0;
    std::vector<int> indices(reqs.size());
    for (int round = 0; done < reqs.size(); ++round) {
      if (round % 2) {
        int index = -1, flag = 0;
        OK(pure_testany(static_cast<int>(reqs.size()), reqs.data(), &index, &flag, PURE_STATUS_IGNORE));
        if (flag && index != PURE_UNDEFINED) ++done;
      } else {
        int outcount = 0;
        OK(pure_waitsome(static_cast<int>(reqs.size()), reqs.data(), &outcount, indices.data(),
                         PURE_STATUSES_IGNORE));
        CHECK(outcount > 0, "waitsome found %d", outcount);
        done += static_cast<std::size_t>(outcount);
      }
    }
    for (int i = 0; i < count; ++i) {
      const std::size_t ii = static_cast<std::size_t>(i);
      CHECK(bc[ii] == value(root, i, 71), "ibcast element %d", i);
      CHECK(sum[ii] == sum_values(0, g_size - 1, i, 70), "iallreduce on the duplicate, element %d", i);
      CHECK(bsum[ii] == sum_values(0, g_size - 1, i, 70), "allreduce beside them, element %d", i);
      CHECK(scan[ii] == sum_values(0, g_rank, i, 70), "iscan element %d", i);
      CHECK(hmax[ii] == value(members.front(), i, 70), "iallreduce max on the half, element %d", i);
      CHECK(bbc[ii] == value(members.front(), i, 73), "bcast on the half, element %d", i);
      CHECK(got[ii] == value(left, i, 70) && got2[ii] == value(right, i, 70), "sendrecv element %d", i);
      for (int k = 0; k < g_size; ++k) {
        const std::size_t at = static_cast<std::size_t>(k) * cc + ii;
        CHECK(allg[at] == value(k, i, 70), "iallgather from %d, element %d", k, i);
        CHECK(ball[at] == value(k, i, 70), "allgather from %d, element %d", k, i);
      }
      for (int k = 0; k < hsize; ++k)
        CHECK(hin[static_cast<std::size_t>(k) * cc + ii] ==
                  value(members[static_cast<std::size_t>(k)], hme * count + i, 72),
              "ialltoall on the half from %d, element %d", k, i);
    }
  }
  OK(pure_comm_free(&dup));
  OK(pure_comm_free(&half));
}

// A generalized request completed by a thread that is no rank, waited for
// together with point-to-point requests to and from other processes: its
// query runs once, then its free, and its status is the query's.
struct Greq {
  std::atomic<int> queries{0}, frees{0};
};
int greq_query(void* extra, PURE_Status* status) {
  static_cast<Greq*>(extra)->queries.fetch_add(1);
  status->MPI_SOURCE = g_rank + 500;
  status->MPI_TAG = 77;
  return pure_status_set_elements(status, PURE_INT, 2);
}
int greq_free(void* extra) {
  static_cast<Greq*>(extra)->frees.fetch_add(1);
  return PURE_SUCCESS;
}
int greq_cancel(void*, int) { return PURE_SUCCESS; }

void generalized() {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  Greq g;
  PURE_Request q[3];
  OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &q[0]));
  std::vector<int> out(20000), in(20000, -1);
  for (int i = 0; i < 20000; ++i) out[static_cast<std::size_t>(i)] = g_rank * 11 + i;
  OK(pure_irecv(in.data(), 20000, PURE_INT, left, 40, PURE_COMM_WORLD, &q[1]));
  OK(pure_isend(out.data(), 20000, PURE_INT, right, 40, PURE_COMM_WORLD, &q[2]));
  const PURE_Request handle = q[0];
  std::thread helper([handle] {
    const int rc = pure_grequest_complete(handle);
    if (rc != PURE_SUCCESS) std::fprintf(stderr, "multiproc_check: pure_grequest_complete: %d\n", rc);
  });
  PURE_Status st[3];
  OK(pure_waitall(3, q, st));
  helper.join();
  int count = -1;
  OK(pure_get_count(&st[0], PURE_INT, &count));
  CHECK(st[0].MPI_SOURCE == g_rank + 500 && st[0].MPI_TAG == 77 && count == 2,
        "generalized status: source %d tag %d count %d", st[0].MPI_SOURCE, st[0].MPI_TAG, count);
  CHECK(g.queries.load() == 1 && g.frees.load() == 1, "query ran %d times, free %d times",
        g.queries.load(), g.frees.load());
  CHECK(q[0] == PURE_REQUEST_NULL, "the wait left the generalized request");
  for (int i = 0; i < 20000; ++i)
    CHECK(in[static_cast<std::size_t>(i)] == left * 11 + i, "element %d beside the generalized request", i);
}

void isendrecv() {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  std::vector<long long> out(5000), in(5000, -1), rep(5000);
  for (int i = 0; i < 5000; ++i) {
    out[static_cast<std::size_t>(i)] = value(g_rank, i, 60);
    rep[static_cast<std::size_t>(i)] = value(g_rank, i, 61);
  }
  PURE_Request q[2];
  OK(pure_isendrecv(out.data(), 5000, PURE_LONG_LONG, right, 30, in.data(), 5000, PURE_LONG_LONG,
                    left, 30, PURE_COMM_WORLD, &q[0]));
  OK(pure_isendrecv_replace(rep.data(), 5000, PURE_LONG_LONG, left, 31, right, 31, PURE_COMM_WORLD,
                            &q[1]));
  PURE_Status st[2];
  OK(pure_waitall(2, q, st));
  CHECK(st[0].MPI_SOURCE == left && st[1].MPI_SOURCE == right, "sources %d %d", st[0].MPI_SOURCE,
        st[1].MPI_SOURCE);
  for (int i = 0; i < 5000; ++i) {
    CHECK(in[static_cast<std::size_t>(i)] == value(left, i, 60), "isendrecv element %d", i);
    CHECK(rep[static_cast<std::size_t>(i)] == value(right, i, 61), "isendrecv_replace element %d", i);
  }
}

}  // namespace

// MPI-4 persistent collectives on `comm`, each started three times with
// new inputs (allreduce and alltoall past the eager size), completed with
// waitall around a blocking collective on the same communicator.
void persistent_collectives(PURE_Comm comm, int count) {
  int me, n;
  pure_comm_rank(comm, &me);
  pure_comm_size(comm, &n);
  const std::size_t nn = static_cast<std::size_t>(n), cc = static_cast<std::size_t>(count);
  const int root = n - 1;
  std::vector<long long> in(cc), all(cc), bc(cc), a2a_out(nn * cc), a2a_in(nn * cc), scan(cc);
  PURE_Request reqs[4];
  OK(pure_allreduce_init(in.data(), all.data(), count, PURE_LONG_LONG, PURE_SUM, comm,
                         PURE_INFO_NULL, &reqs[0]));
  OK(pure_bcast_init(bc.data(), count, PURE_LONG_LONG, root, comm, PURE_INFO_NULL, &reqs[1]));
  OK(pure_alltoall_init_c(a2a_out.data(), count, PURE_LONG_LONG, a2a_in.data(), count,
                          PURE_LONG_LONG, comm, PURE_INFO_NULL, &reqs[2]));
  OK(pure_scan_init(in.data(), scan.data(), count, PURE_LONG_LONG, PURE_SUM, comm, PURE_INFO_NULL,
                    &reqs[3]));
  for (int run = 0; run < 3; ++run) {
    const int salt = 700 + run;
    for (std::size_t i = 0; i < cc; ++i) {
      in[i] = value(me, static_cast<int>(i), salt);
      bc[i] = me == root ? value(root, static_cast<int>(i), salt + 1) : -1;
      all[i] = scan[i] = -1;
    }
    for (int k = 0; k < n; ++k)
      for (std::size_t i = 0; i < cc; ++i) {
        a2a_out[static_cast<std::size_t>(k) * cc + i] = value(me, k * count + static_cast<int>(i), salt);
        a2a_in[static_cast<std::size_t>(k) * cc + i] = -1;
      }
    OK(pure_startall(4, reqs));
    int one = 1, total = 0;
    OK(pure_allreduce(&one, &total, 1, PURE_INT, PURE_SUM, comm));
    CHECK(total == n, "persistent: blocking allreduce between them gave %d", total);
    OK(pure_waitall(4, reqs, PURE_STATUSES_IGNORE));
    for (int i = 0; i < count; ++i) {
      const std::size_t ii = static_cast<std::size_t>(i);
      CHECK(all[ii] == sum_values(0, n - 1, i, salt), "persistent allreduce run %d element %d", run, i);
      CHECK(bc[ii] == value(root, i, salt + 1), "persistent bcast run %d element %d", run, i);
      CHECK(scan[ii] == sum_values(0, me, i, salt), "persistent scan run %d element %d", run, i);
      for (int k = 0; k < n; ++k)
        CHECK(a2a_in[static_cast<std::size_t>(k) * cc + ii] == value(k, me * count + i, salt),
              "persistent alltoall_c run %d block %d element %d", run, k, i);
    }
  }
  for (PURE_Request& q : reqs) OK(pure_request_free(&q));
}

void run_requests() {
  for (int count : {1, 7, 20000}) collectives(PURE_COMM_WORLD, count, count);
  // A communicator whose members interleave over the processes.
  PURE_Comm odd_even;
  OK(pure_comm_split(PURE_COMM_WORLD, g_rank % 2, g_size - g_rank, &odd_even));
  collectives(odd_even, 9, 50);
  persistent_collectives(odd_even, 3);
  OK(pure_comm_free(&odd_even));
  for (int count : {2, 5000}) persistent_collectives(PURE_COMM_WORLD, count);
  overlapped();
  noncommutative();
  idup();
  persistent();
  matched();
  matched_all_to_all();
  cancel_send();
  isendrecv();
  generalized();
}
