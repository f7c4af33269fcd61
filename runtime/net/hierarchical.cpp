// Collectives on communicators whose members live in several processes.
//
// Every one is hierarchical: a stage inside each process on the
// communicator's local view (the ordinary collectives of this folder), one
// MPI collective among the processes' leaders on the communicator's own MPI
// communicator (CommNet::coll), and a stage inside each process again. The
// leader of a process is its first member (local rank 0); only leaders call
// MPI collectives, always in the communicator's order, so MPI sees one
// thread per process. Leaders wait for MPI through the wait loop
// (non-blocking MPI collectives and MPI_Test), so they steal task chunks and
// keep MPI progressing while they wait.
//
// Barrier and bcast use the local collectives for both local stages. The
// others follow one pattern, since the members share an address space: each
// member hands its leader a pointer to its arguments (a local gather of one
// pointer), the leader reads the members' send buffers and writes their
// receive buffers itself around the MPI step, then tells them it is done and
// whether it failed (a local bcast). Data crosses processes as bytes, per
// process one blob: a header of one block size per member and block, then
// the blocks, so that no leader needs another process's counts.
//
// Reductions combine whole "views" (collectives/ops.h): dense items, or the
// user's layout for user ops. Commutative ops are folded per process first;
// predefined ops on basic types then go through MPI's own reduction, others
// through an allgather of the partial results that each leader folds. Non-
// commutative ops are folded in rank order from every member's input. Scans:
// where each process holds a run of consecutive ranks, each leader folds its
// members' prefixes and the leaders scan their totals by recursive doubling
// (log2 of the processes steps); otherwise each member's result folds the
// inputs of the ranks before it, from an allgather of every input.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "net/cluster.h"
#include "net/hierarchical.h"
#include "net/mpi_layout.h"
#include "net/stage.h"

namespace pure::hier {

using coll::ReduceArgs;

namespace {

// A blob: `blocks` sizes, then the blocks' bytes, in order.
class BlobWriter {
 public:
  explicit BlobWriter(std::size_t blocks) : sizes_(blocks), next_(0) {}
  // Appends a block of `bytes` packed from (buf, count, type).
  void add(const void* buf, std::size_t count, const Datatype& type) {
    const std::size_t bytes = count * type.size();
    sizes_[next_++] = bytes;
    const std::size_t at = data_.size();
    data_.resize(at + bytes);
    if (bytes) pack(buf, count, type, 0, data_.data() + at, bytes);
  }
  std::vector<char> finish() const {
    std::vector<char> out(sizes_.size() * sizeof(std::uint64_t) + data_.size());
    if (!sizes_.empty()) std::memcpy(out.data(), sizes_.data(), sizes_.size() * sizeof(std::uint64_t));
    if (!data_.empty()) std::memcpy(out.data() + sizes_.size() * sizeof(std::uint64_t), data_.data(), data_.size());
    return out;
  }

 private:
  std::vector<std::uint64_t> sizes_;
  std::size_t next_;
  std::vector<char> data_;
};

class BlobReader {
 public:
  BlobReader(const std::vector<char>& blob, std::size_t blocks) : blob_(blob) {
    std::size_t at = blocks * sizeof(std::uint64_t);
    starts_.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
      starts_[b] = at;
      at += size(b);
    }
  }
  std::size_t size(std::size_t b) const {
    std::uint64_t s;
    std::memcpy(&s, blob_.data() + b * sizeof s, sizeof s);
    return static_cast<std::size_t>(s);
  }
  const char* data(std::size_t b) const { return blob_.data() + starts_[b]; }

 private:
  const std::vector<char>& blob_;
  std::vector<std::size_t> starts_;
};

// Unpacks a received block into (buf, count, type), never past the buffer.
void deliver_block(Stage& s, const char* data, std::size_t bytes, void* buf, std::size_t count,
                   const Datatype& type, int from, int to) {
  const std::size_t rbytes = count * type.size();
  s.mismatch(bytes, rbytes, from, to);
  const std::size_t n = std::min(bytes, rbytes);
  if (n) unpack(data, n, buf, count, type, 0);
}

// ---- reductions ----

// The MPI type of a basic type whose items MPI's own reductions fold as
// Pure's views lay them out: the plain numbers. Pairs (packed records in a
// view), complex and the address-sized types are folded by Pure.
MPI_Datatype mpi_base(BaseType b) {
  switch (b) {
    case BaseType::float_int:
    case BaseType::double_int:
    case BaseType::long_int:
    case BaseType::two_int:
    case BaseType::short_int:
    case BaseType::ldouble_int:
    case BaseType::cfloat:
    case BaseType::cdouble:
    case BaseType::cldouble:
    case BaseType::aint:
    case BaseType::offset:
    case BaseType::count:
    case BaseType::cxx_bool:
      return MPI_DATATYPE_NULL;
    default:
      return mpi_memory_type(b);
  }
}

MPI_Op mpi_op(int predefined) {
  switch (predefined) {
    case op_max: return MPI_MAX;
    case op_min: return MPI_MIN;
    case op_sum: return MPI_SUM;
    case op_prod: return MPI_PROD;
    case op_land: return MPI_LAND;
    case op_band: return MPI_BAND;
    case op_lor: return MPI_LOR;
    case op_bor: return MPI_BOR;
    case op_lxor: return MPI_LXOR;
    case op_bxor: return MPI_BXOR;
    default: return MPI_OP_NULL;
  }
}

// What a member hands its leader for a reduction.
struct ReduceMember {
  const void* input;  // a view of its items (ops.h)
  void* recv;
  int rank;           // in the communicator
};

bool commutative(const ReduceArgs& a) { return a.op.predefined != 0 || a.op.user.commute; }

// Every communicator member's input view, from blobs of each process's
// members' inputs (view_bytes each, in local rank order).
class Inputs {
 public:
  Inputs(Stage& s, const Reduction& red, const std::vector<ReduceMember*>& members, int root_pos)
      : net_(s.net), red_(red), vb_(red.view_bytes()) {
    std::vector<char> mine(members.size() * vb_);
    for (std::size_t k = 0; k < members.size(); ++k)
      std::memcpy(mine.data() + k * vb_, members[k]->input, vb_);
    blobs_ = root_pos < 0 ? s.allgather(mine) : s.gather(mine, root_pos);
  }
  bool here() const { return !blobs_.empty(); }  // false at the leaders gather skips
  const void* of(int r) const {
    const auto& blob = blobs_[static_cast<std::size_t>(net_.pos_of[static_cast<std::size_t>(r)])];
    return red_.view_at(blob.data() + static_cast<std::size_t>(net_.slot_of[static_cast<std::size_t>(r)]) * vb_);
  }

 private:
  const CommNet& net_;
  const Reduction& red_;
  std::size_t vb_;
  std::vector<std::vector<char>> blobs_;
};

// What every reduction starts with: the op bound to the type, this member's
// input view (kept in `scratch` until the leader is done) handed to the leader.
struct ReduceStage {
  Stage s;
  Reduction red;
  std::vector<unsigned char> scratch;
  ReduceMember me;
  std::vector<ReduceMember*> members;
  ReduceStage(coll::Member& member, Comm& comm, const ReduceArgs& a)
      : s(member, comm, a.call), red(a.op, *a.type, a.handle, a.count),
        me{red.input_view(a.send ? a.send : a.recv, scratch), a.recv, comm.rank()},
        members(s.to_leader(&me)) {}
};

// The leader's part: the result view (in `storage`) at every leader when
// root_pos < 0, else at the leader of process root_pos only.
const void* combine(Stage& s, const Reduction& red, const ReduceArgs& a,
                    const std::vector<ReduceMember*>& members, int root_pos,
                    std::vector<unsigned char>& storage) {
  const std::size_t items = red.items(), vb = red.view_bytes();
  const bool everywhere = root_pos < 0;
  if (commutative(a)) {
    void* acc = red.buffer(storage, items);
    red.copy(members[0]->input, acc, items);
    for (std::size_t k = 1; k < members.size(); ++k) red.combine(members[k]->input, acc, items);
    if (s.procs == 1) return acc;
    // Predefined ops on basic types: MPI's own reduction of the partials.
    MPI_Datatype base = mpi_base(a.type->base());
    MPI_Op op = red.user() ? MPI_OP_NULL : mpi_op(a.op.predefined);
    if (base != MPI_DATATYPE_NULL && op != MPI_OP_NULL) {
      std::vector<unsigned char> result;
      void* out = red.buffer(result, items);
      MPI_Request req;
      const int n = mpi_count(items, s.call);
      if (everywhere)
        mpi_check(MPI_Iallreduce(acc, out, n, base, op, s.net.coll, &req), "MPI_Iallreduce");
      else
        mpi_check(MPI_Ireduce(acc, out, n, base, op, root_pos, s.net.coll, &req), "MPI_Ireduce");
      s.wait(req);
      storage.swap(result);
      return red.view_of(storage);
    }
    // Partials of every process, folded by each leader that needs them.
    std::vector<char> mine(static_cast<const char*>(acc), static_cast<const char*>(acc) + vb);
    auto blobs = everywhere ? s.allgather(mine) : s.gather(mine, root_pos);
    if (blobs.empty()) return nullptr;
    void* res = red.buffer(storage, items);
    red.copy(red.view_at(blobs.back().data()), res, items);
    for (int p = s.procs - 2; p >= 0; --p)
      red.combine(red.view_at(blobs[static_cast<std::size_t>(p)].data()), res, items);
    return res;
  }
  // Not commutative: every member's input, folded in rank order.
  Inputs in(s, red, members, root_pos);
  if (!in.here()) return nullptr;
  void* res = red.buffer(storage, items);
  const int n = s.comm.size();
  red.copy(in.of(n - 1), res, items);
  for (int r = n - 2; r >= 0; --r) red.combine(in.of(r), res, items);
  return res;
}

}  // namespace

void barrier(coll::Member& member, Comm& comm, const char* call) {
  barrier_among(member, comm, call, net_of(comm));
}

void barrier_among(coll::Member& member, Comm& comm, const char* call, const CommNet& among) {
  Stage s(member, comm, call);
  coll::barrier(member, s.local, call);
  if (s.leader) {
    MPI_Request req;
    mpi_check(MPI_Ibarrier(among.coll, &req), "MPI_Ibarrier");
    s.wait(req);
  }
  int done = 0;
  coll::bcast(member, s.local, call, &done, sizeof done, byte_type(), 0);
}

void bcast(coll::Member& member, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root) {
  Stage s(member, comm, call);
  const int root_pos = s.net.pos_of[static_cast<std::size_t>(root)];
  const int root_slot = s.net.slot_of[static_cast<std::size_t>(root)];
  const bool here = root_pos == s.net.my_pos;
  // In the root's process the leader gets the data first.
  if (here && root_slot != 0) coll::bcast(member, s.local, call, buf, count, type, root_slot);
  const std::size_t bytes = count * type.size();
  if (s.leader && bytes != 0) {
    std::vector<char> packed;
    void* data = static_cast<char*>(buf) + type.true_lb();
    if (!type.contiguous()) {
      packed.resize(bytes);
      if (here) pack(buf, count, type, 0, packed.data(), bytes);
      data = packed.data();
    }
    MPI_Request req;
    mpi_check(MPI_Ibcast(data, mpi_count(bytes, call), MPI_BYTE, root_pos, s.net.coll, &req),
              "MPI_Ibcast");
    s.wait(req);
    if (!here && !type.contiguous()) unpack(packed.data(), bytes, buf, count, type, 0);
  }
  if (!here || root_slot == 0) coll::bcast(member, s.local, call, buf, count, type, 0);
}

void reduce(coll::Member& member, Comm& comm, const ReduceArgs& a, int root) {
  ReduceStage st(member, comm, a);
  if (st.s.leader) {
    const int root_pos = root < 0 ? -1 : st.s.net.pos_of[static_cast<std::size_t>(root)];
    std::vector<unsigned char> storage;
    const void* res = combine(st.s, st.red, a, st.members, root_pos, storage);
    if (res) {
      for (ReduceMember* m : st.members)
        if (root < 0 || m->rank == root) st.red.deliver(res, m->recv);
    }
  }
  st.s.from_leader();
}

namespace {

// Whether every process holds one run of consecutive communicator ranks
// (the default rank map, and most splits of it): then a scan is a scan of
// the processes' totals in position order.
bool ranks_in_runs(const CommNet& net) {
  for (const auto& members : net.members_at)
    for (std::size_t k = 1; k < members.size(); ++k)
      if (members[k] != members[k - 1] + 1) return false;
  return true;
}

constexpr int kScanTag = 1;  // the leaders' messages of a scan, on CommNet::coll

// Recursive doubling over the leaders, in position order: returns whether
// there are processes before this one, with `before` (a view in its
// storage) the fold of their totals. log2(procs) steps of one exchange of
// a view each; the op need not commute (folds keep position order).
bool exscan_totals(Stage& s, const Reduction& red, const void* total,
                   std::vector<unsigned char>& before_storage) {
  const std::size_t items = red.items(), vb = red.view_bytes();
  std::vector<unsigned char> partial_storage, incoming_storage;
  void* partial = red.buffer(partial_storage, items);  // the fold of my block so far
  red.copy(total, partial, items);
  void* incoming = red.buffer(incoming_storage, items);
  void* before = nullptr;
  const int me = s.net.my_pos;
  for (int mask = 1; mask < s.procs; mask <<= 1) {
    const int partner = me ^ mask;
    if (partner >= s.procs) continue;
    MPI_Request reqs[2];
    mpi_check(MPI_Irecv(incoming_storage.data(), mpi_count(vb, s.call), MPI_BYTE, partner, kScanTag,
                        s.net.coll, &reqs[0]),
              "MPI_Irecv");
    mpi_check(MPI_Isend(partial_storage.data(), mpi_count(vb, s.call), MPI_BYTE, partner, kScanTag,
                        s.net.coll, &reqs[1]),
              "MPI_Isend");
    s.wait(reqs[0]);
    s.wait(reqs[1]);
    if (partner < me) {
      // A block of positions just below everything folded so far.
      if (before) {
        red.combine(incoming, before, items);  // before = incoming op before
      } else {
        before = red.buffer(before_storage, items);
        red.copy(incoming, before, items);
      }
      red.combine(incoming, partial, items);  // partial = incoming op partial
    } else {
      red.combine(partial, incoming, items);  // partial op incoming, kept in partial
      red.copy(incoming, partial, items);
    }
  }
  return before != nullptr;
}

// The scan of a communicator whose processes hold runs of ranks: each
// leader folds its members' prefixes, the leaders scan their totals.
void scan_by_process(ReduceStage& st, bool exclusive) {
  const Reduction& red = st.red;
  const std::size_t items = red.items();
  std::vector<unsigned char> prefix_storage, next_storage, out_storage, before_storage;
  void* prefix = red.buffer(prefix_storage, items);  // inputs of members 0..k here
  void* next = red.buffer(next_storage, items);
  red.copy(st.members[0]->input, prefix, items);
  for (std::size_t k = 1; k < st.members.size(); ++k) {
    red.copy(st.members[k]->input, next, items);
    red.combine(prefix, next, items);  // prefix op input k
    std::swap(prefix, next);
    std::swap(prefix_storage, next_storage);
  }
  const bool has_before = exscan_totals(st.s, red, prefix, before_storage);
  const void* before = has_before ? red.view_of(before_storage) : nullptr;
  // Second pass: each member's result, from the processes before and the
  // members before it here (inclusive: and its own input).
  void* running = red.buffer(prefix_storage, items);
  void* out = red.buffer(out_storage, items);
  bool started = false;
  for (ReduceMember* m : st.members) {
    if (!exclusive) {
      if (started) {
        red.copy(m->input, out, items);
        red.combine(running, out, items);
        red.copy(out, running, items);
      } else {
        red.copy(m->input, running, items);
        started = true;
      }
    }
    if (started || before) {
      if (!started) {
        red.copy(before, out, items);  // exclusive, first member here
      } else if (before) {
        red.copy(running, out, items);
        red.combine(before, out, items);
      } else {
        red.copy(running, out, items);
      }
      red.deliver(out, m->recv);
    }  // else: exscan leaves rank 0's buffer alone
    if (exclusive) {
      if (started) {
        red.copy(m->input, out, items);
        red.combine(running, out, items);
        red.copy(out, running, items);
      } else {
        red.copy(m->input, running, items);
        started = true;
      }
    }
  }
}

}  // namespace

void scan(coll::Member& member, Comm& comm, const ReduceArgs& a, bool exclusive) {
  ReduceStage st(member, comm, a);
  if (st.s.leader && ranks_in_runs(st.s.net)) {
    scan_by_process(st, exclusive);
  } else if (st.s.leader) {
    const Reduction& red = st.red;
    const std::size_t items = red.items();
    Inputs in(st.s, red, st.members, -1);
    std::vector<unsigned char> storage;
    void* acc = red.buffer(storage, items);
    for (ReduceMember* m : st.members) {
      const int last = exclusive ? m->rank - 1 : m->rank;  // inputs 0..last
      if (last < 0) continue;  // exscan leaves rank 0's buffer alone
      red.copy(in.of(last), acc, items);
      for (int r = last - 1; r >= 0; --r) red.combine(in.of(r), acc, items);
      red.deliver(acc, m->recv);
    }
  }
  st.s.from_leader();
}

void reduce_scatter(coll::Member& member, Comm& comm, const ReduceArgs& a, const int* recvcounts) {
  ReduceStage st(member, comm, a);
  if (st.s.leader) {
    const Reduction& red = st.red;
    std::vector<unsigned char> storage;
    const void* res = combine(st.s, red, a, st.members, -1, storage);
    // Items per element: a dense view may hold several per element.
    const std::size_t per = a.count ? red.items() / a.count : 0;
    std::vector<std::size_t> first(static_cast<std::size_t>(comm.size()) + 1, 0);
    for (int r = 0; r < comm.size(); ++r)
      first[static_cast<std::size_t>(r) + 1] =
          first[static_cast<std::size_t>(r)] + static_cast<std::size_t>(recvcounts[r]) * per;
    for (ReduceMember* m : st.members) {
      const std::size_t mine = static_cast<std::size_t>(recvcounts[m->rank]);
      if (mine == 0) continue;
      Reduction part(a.op, *a.type, a.handle, mine);
      part.deliver(red.at(res, first[static_cast<std::size_t>(m->rank)]), m->recv);
    }
  }
  st.s.from_leader();
}

// ---- data movement ----

namespace {
// What a member hands its leader for gatherv, scatterv, allgatherv, alltoallv.
struct MoveMember {
  const void* send;  // nullptr: in place
  const int* scounts;
  const int* sdispls;
  std::size_t scount;
  const Datatype* stype;
  void* recv;
  const int* rcounts;
  const int* rdispls;
  std::size_t rcount;
  const Datatype* rtype;
  int rank;
};
}  // namespace

void gatherv(coll::Member& member, Comm& comm, const char* call, const void* send, std::size_t scount,
             const Datatype* stype, void* recv, const int* rcounts, const int* displs,
             const Datatype* rtype, int root) {
  Stage s(member, comm, call);
  MoveMember me{send, nullptr, nullptr, scount, stype, recv, rcounts, displs, 0, rtype, comm.rank()};
  auto members = s.to_leader(&me);
  if (s.leader) {
    const int root_pos = s.net.pos_of[static_cast<std::size_t>(root)];
    BlobWriter out(members.size());
    for (MoveMember* m : members) {
      if (m->send) out.add(m->send, m->scount, *m->stype);
      else out.add(nullptr, 0, byte_type());  // the root in place: its block is where it belongs
    }
    auto blobs = s.gather(out.finish(), root_pos);
    if (!blobs.empty()) {
      MoveMember* r = members[static_cast<std::size_t>(s.net.slot_of[static_cast<std::size_t>(root)])];
      for (int k = 0; k < comm.size(); ++k) {
        const std::size_t slot = static_cast<std::size_t>(s.net.slot_of[static_cast<std::size_t>(k)]);
        if (k == root && !r->send) continue;
        BlobReader in(blobs[static_cast<std::size_t>(s.net.pos_of[static_cast<std::size_t>(k)])],
                      s.net.members_at[static_cast<std::size_t>(s.net.pos_of[static_cast<std::size_t>(k)])].size());
        deliver_block(s, in.data(slot), in.size(slot), at(r->recv, r->rdispls[k], *r->rtype),
                      static_cast<std::size_t>(r->rcounts[k]), *r->rtype, k, root);
      }
    }
  }
  s.from_leader();
}

void scatterv(coll::Member& member, Comm& comm, const char* call, const void* send, const int* scounts,
              const int* displs, const Datatype* stype, void* recv, std::size_t rcount,
              const Datatype* rtype, int root) {
  Stage s(member, comm, call);
  MoveMember me{send, scounts, displs, 0, stype, recv, nullptr, nullptr, rcount, rtype, comm.rank()};
  auto members = s.to_leader(&me);
  if (s.leader) {
    const int root_pos = s.net.pos_of[static_cast<std::size_t>(root)];
    std::vector<char> blob;
    if (root_pos == s.net.my_pos) {
      // The root's leader cuts one blob per process out of the root's buffer.
      const MoveMember* r = members[static_cast<std::size_t>(s.net.slot_of[static_cast<std::size_t>(root)])];
      std::vector<std::vector<char>> out(static_cast<std::size_t>(s.procs));
      for (int p = 0; p < s.procs; ++p) {
        const auto& there = s.net.members_at[static_cast<std::size_t>(p)];
        BlobWriter w(there.size());
        for (int k : there) {
          if (k == root && !r->recv) w.add(nullptr, 0, byte_type());  // in place: stays
          else w.add(at(r->send, r->sdispls[k], *r->stype), static_cast<std::size_t>(r->scounts[k]), *r->stype);
        }
        out[static_cast<std::size_t>(p)] = w.finish();
      }
      // Scatter the sizes, then the blobs.
      std::vector<std::uint64_t> sizes(out.size());
      std::vector<int> counts(out.size()), displs_b(out.size());
      std::size_t total = 0;
      for (std::size_t p = 0; p < out.size(); ++p) {
        sizes[p] = out[p].size();
        counts[p] = mpi_count(out[p].size(), call);
        displs_b[p] = mpi_count(total, call);
        total += out[p].size();
      }
      std::vector<char> all(total ? total : 1);
      for (std::size_t p = 0; p < out.size(); ++p)
        if (!out[p].empty()) std::memcpy(all.data() + displs_b[p], out[p].data(), out[p].size());
      std::uint64_t n = 0;
      MPI_Request req;
      mpi_check(MPI_Iscatter(sizes.data(), 1, MPI_UINT64_T, &n, 1, MPI_UINT64_T, root_pos, s.net.coll, &req), "MPI_Iscatter");
      s.wait(req);
      blob.resize(n);
      mpi_check(MPI_Iscatterv(all.data(), counts.data(), displs_b.data(), MPI_BYTE, blob.data(),
                              mpi_count(n, call), MPI_BYTE, root_pos, s.net.coll, &req),
                "MPI_Iscatterv");
      s.wait(req);
    } else {
      std::uint64_t n = 0;
      MPI_Request req;
      mpi_check(MPI_Iscatter(nullptr, 1, MPI_UINT64_T, &n, 1, MPI_UINT64_T, root_pos, s.net.coll, &req), "MPI_Iscatter");
      s.wait(req);
      blob.resize(n);
      mpi_check(MPI_Iscatterv(nullptr, nullptr, nullptr, MPI_BYTE, blob.data(), mpi_count(n, call),
                              MPI_BYTE, root_pos, s.net.coll, &req),
                "MPI_Iscatterv");
      s.wait(req);
    }
    BlobReader in(blob, members.size());
    for (std::size_t j = 0; j < members.size(); ++j) {
      MoveMember* m = members[j];
      if (m->rank == root && !m->recv) continue;
      deliver_block(s, in.data(j), in.size(j), m->recv, m->rcount, *m->rtype, root, m->rank);
    }
  }
  s.from_leader();
}

void allgatherv(coll::Member& member, Comm& comm, const char* call, const void* send, std::size_t scount,
                const Datatype* stype, void* recv, const int* rcounts, const int* displs,
                const Datatype* rtype) {
  Stage s(member, comm, call);
  MoveMember me{send, nullptr, nullptr, scount, stype, recv, rcounts, displs, 0, rtype, comm.rank()};
  auto members = s.to_leader(&me);
  if (s.leader) {
    BlobWriter out(members.size());
    for (MoveMember* m : members) {
      if (m->send) out.add(m->send, m->scount, *m->stype);
      else  // in place: the member's own block, from its receive buffer
        out.add(at(m->recv, m->rdispls[m->rank], *m->rtype),
                static_cast<std::size_t>(m->rcounts[m->rank]), *m->rtype);
    }
    auto blobs = s.allgather(out.finish());
    std::vector<BlobReader> in;
    in.reserve(blobs.size());
    for (int p = 0; p < s.procs; ++p)
      in.emplace_back(blobs[static_cast<std::size_t>(p)], s.net.members_at[static_cast<std::size_t>(p)].size());
    for (MoveMember* m : members) {
      for (int k = 0; k < comm.size(); ++k) {
        if (k == m->rank && !m->send) continue;
        const BlobReader& b = in[static_cast<std::size_t>(s.net.pos_of[static_cast<std::size_t>(k)])];
        const std::size_t slot = static_cast<std::size_t>(s.net.slot_of[static_cast<std::size_t>(k)]);
        deliver_block(s, b.data(slot), b.size(slot), at(m->recv, m->rdispls[k], *m->rtype),
                      static_cast<std::size_t>(m->rcounts[k]), *m->rtype, k, m->rank);
      }
    }
  }
  s.from_leader();
}

void alltoallv(coll::Member& member, Comm& comm, const char* call, const void* send, const int* scounts,
               const int* sdispls, const Datatype* stype, void* recv, const int* rcounts,
               const int* rdispls, const Datatype* rtype) {
  Stage s(member, comm, call);
  MoveMember me{send, scounts, sdispls, 0, stype, recv, rcounts, rdispls, 0, rtype, comm.rank()};
  auto members = s.to_leader(&me);
  if (s.leader) {
    // Everything that leaves is packed before anything arrives, so in place
    // (send data read from the receive buffers) is safe.
    std::vector<std::vector<char>> out(static_cast<std::size_t>(s.procs));
    for (int p = 0; p < s.procs; ++p) {
      const auto& there = s.net.members_at[static_cast<std::size_t>(p)];
      BlobWriter w(members.size() * there.size());
      for (MoveMember* m : members) {
        const bool in_place = !m->send;
        const void* src = in_place ? m->recv : m->send;
        const int* c = in_place ? m->rcounts : m->scounts;
        const int* d = in_place ? m->rdispls : m->sdispls;
        const Datatype& t = in_place ? *m->rtype : *m->stype;
        for (int k : there) w.add(at(src, d[k], t), static_cast<std::size_t>(c[k]), t);
      }
      out[static_cast<std::size_t>(p)] = w.finish();
    }
    auto blobs = s.alltoall(out);
    for (int p = 0; p < s.procs; ++p) {
      const auto& there = s.net.members_at[static_cast<std::size_t>(p)];
      BlobReader in(blobs[static_cast<std::size_t>(p)], there.size() * members.size());
      for (std::size_t i = 0; i < there.size(); ++i) {
        for (std::size_t j = 0; j < members.size(); ++j) {
          MoveMember* m = members[j];
          const int k = there[i];
          const std::size_t b = i * members.size() + j;
          deliver_block(s, in.data(b), in.size(b), at(m->recv, m->rdispls[k], *m->rtype),
                        static_cast<std::size_t>(m->rcounts[k]), *m->rtype, k, m->rank);
        }
      }
    }
  }
  s.from_leader();
}

}  // namespace pure::hier
