#include "net/window_net.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/error.h"
#include "net/cluster.h"
#include "net/comm_net.h"
#include "net/mpi_layout.h"
#include "net/stage.h"
#include "types/ops.h"

namespace pure {

namespace {

std::atomic<int> g_spanning_windows{0};

using onesided::Flavor;

// A lock word in the control window: the exclusive holder's bit, or the
// number of shared holders below it.
constexpr std::int64_t kExclusive = std::int64_t{1} << 40;

// PSCW messages: a post from a target to an origin, a complete back.
enum class Pscw { post = 0, complete = 1 };

MPI_Op mpi_rma_op(int op) {
  switch (op) {
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
    case op_minloc: return MPI_MINLOC;
    case op_maxloc: return MPI_MAXLOC;
    case op_replace: return MPI_REPLACE;
    case op_no_op: return MPI_NO_OP;
    default: return MPI_OP_NULL;
  }
}

int bits_for(int values) {
  int bits = 0;
  while ((1 << bits) < values) ++bits;
  return bits;
}

// Checks the return code of an MPI window's creation: a failure says which
// MPI it was and what to do.
void check_window(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
#ifdef OPEN_MPI
  fail(PURE_ERR_WIN,
       "%s failed: %.*s (Open MPI: its osc/rdma component crashes over shared memory, so Pure "
       "leaves it out unless OMPI_MCA_osc says otherwise, and osc/pt2pt cannot serve "
       "MPI_THREAD_MULTIPLE; one-sided communication between processes needs osc/ucx, or "
       "MPICH: configure with -DPURE_MPI=mpich)",
       what, len, text);
#else
  fail(PURE_ERR_WIN, "%s failed: %.*s", what, len, text);
#endif
}

// Runs a started non-blocking MPI operation to completion in the wait loop.
void wait_mpi(Waiter& waiter, MPI_Request& req, const char* call) {
  int done = 0;
  mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
  if (done) return;
  waiter.wait_until(
      [&] {
        mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
        return done != 0;
      },
      WaitSite{call, -1, -1, true});
}

// A contiguous operation over MPI's int count of bytes goes as pieces of
// kPieceBytes, each a plain count of a predefined type: one MPI operation
// with a derived datatype spanning more than 2^31 bytes fails inside MPICH
// (an assertion in its active-message path for RMA). The pieces touch
// disjoint memory, and MPI's accumulate is atomic per element only, so
// pieces are the same operation. Calls `each(offset, count)` per piece, with
// counts of `item`-byte elements; false (and no call) when the operation is
// not such a run.
constexpr std::size_t kPieceBytes = std::size_t{1} << 30;

template <class Each>
bool in_pieces(std::size_t ocount, const Datatype& otype, std::size_t tcount, const Datatype& ttype,
               std::size_t item, Each&& each) {
  const std::size_t bytes = tcount * ttype.size();
  if (bytes <= static_cast<std::size_t>(INT_MAX) || item == 0 || !otype.contiguous() ||
      !ttype.contiguous() || ocount * otype.size() != bytes)
    return false;
  const std::size_t step = kPieceBytes / item * item;
  for (std::size_t done = 0; done < bytes; done += step)
    each(done, static_cast<int>(std::min(step, bytes - done) / item));
  return true;
}

// Where a member's memory is: its process (the MPI rank), its slot there,
// and where its memory starts in its data window (an offset into the
// process's block; 0 in its slot's create window; unused in a dynamic one,
// where displacements are addresses).
struct Where {
  int pos;
  int slot;
  MPI_Aint at;
};

class WindowNet final : public onesided::WindowRemote {
 public:
  WindowNet(Flavor flavor, MPI_Comm comm, std::vector<MPI_Win> data, MPI_Win ctrl,
            std::vector<Where> where,
            std::shared_ptr<const std::vector<onesided::Extent>> extents,
            const std::vector<int>& local_of, int locals, int tag_bits)
      : flavor_(flavor), comm_(comm), data_(std::move(data)), ctrl_(ctrl), where_(std::move(where)),
        extents_(std::move(extents)), local_of_(local_of), tag_bits_(tag_bits),
        pscw_(static_cast<std::size_t>(locals)) {
    g_spanning_windows.fetch_add(1, std::memory_order_relaxed);
  }
  ~WindowNet() override { g_spanning_windows.fetch_sub(1, std::memory_order_relaxed); }

  void put(const onesided::ConstLayout& origin, int target, PURE_Aint disp, std::size_t tcount,
           const Datatype& ttype) override {
    const auto one_at_a_time = serialise_dynamic();
    const char* from = static_cast<const char*>(origin.base) + origin.type->true_lb();
    const MPI_Aint at = displacement(target, disp) + ttype.true_lb();
    if (in_pieces(origin.count, *origin.type, tcount, ttype, 1, [&](std::size_t off, int n) {
          mpi_check(MPI_Put(from + off, n, MPI_BYTE, pos(target), at + static_cast<MPI_Aint>(off),
                            n, MPI_BYTE, data_of(target)),
                    "MPI_Put");
        }))
      return;
    MpiLayout o(origin.count, *origin.type, MpiLayout::Unit::bytes);
    MpiLayout t(tcount, ttype, MpiLayout::Unit::bytes);
    mpi_check(MPI_Put(static_cast<const char*>(origin.base) + o.offset(), o.count(), o.type(),
                      pos(target), displacement(target, disp) + t.offset(), t.count(), t.type(),
                      data_of(target)),
              "MPI_Put");
  }

  void get(const onesided::Layout& origin, int target, PURE_Aint disp, std::size_t tcount,
           const Datatype& ttype) override {
    const auto one_at_a_time = serialise_dynamic();
    char* into = static_cast<char*>(origin.base) + origin.type->true_lb();
    const MPI_Aint at = displacement(target, disp) + ttype.true_lb();
    if (in_pieces(origin.count, *origin.type, tcount, ttype, 1, [&](std::size_t off, int n) {
          mpi_check(MPI_Get(into + off, n, MPI_BYTE, pos(target), at + static_cast<MPI_Aint>(off),
                            n, MPI_BYTE, data_of(target)),
                    "MPI_Get");
        }))
      return;
    MpiLayout o(origin.count, *origin.type, MpiLayout::Unit::bytes);
    MpiLayout t(tcount, ttype, MpiLayout::Unit::bytes);
    mpi_check(
        MPI_Get(static_cast<char*>(origin.base) + o.offset(), o.count(), o.type(), pos(target),
                displacement(target, disp) + t.offset(), t.count(), t.type(), data_of(target)),
        "MPI_Get");
  }

  void accumulate(int op, const onesided::ConstLayout& origin, int target, PURE_Aint disp,
                  std::size_t tcount, const Datatype& ttype,
                  const onesided::Layout* result) override {
    const MPI_Op mop = mpi_rma_op(op);
    const auto one_at_a_time = serialise_dynamic();
    if (accumulate_in_pieces(mop, origin, target, disp, tcount, ttype, result)) return;
    MpiLayout t(tcount, ttype, MpiLayout::Unit::elements);
    const MPI_Aint at = displacement(target, disp) + t.offset();
    if (!result) {
      MpiLayout o(origin.count, *origin.type, MpiLayout::Unit::elements);
      mpi_check(
          MPI_Accumulate(static_cast<const char*>(origin.base) + o.offset(), o.count(), o.type(),
                         pos(target), at, t.count(), t.type(), mop, data_of(target)),
          "MPI_Accumulate");
      return;
    }
    MpiLayout r(result->count, *result->type, MpiLayout::Unit::elements);
    char* into = static_cast<char*>(result->base) + r.offset();
    if (tcount == 1 && ttype.predefined() && r.count() == 1 && t.type() == r.type()) {
      // One element: MPI's own fetch-and-op, which MPI libraries make fast.
      mpi_check(MPI_Fetch_and_op(op == op_no_op ? nullptr : origin.base, into, t.type(),
                                 pos(target), at, mop, data_of(target)),
                "MPI_Fetch_and_op");
      return;
    }
    if (op == op_no_op) {
      mpi_check(MPI_Get_accumulate(nullptr, 0, t.type(), into, r.count(), r.type(), pos(target), at,
                                   t.count(), t.type(), mop, data_of(target)),
                "MPI_Get_accumulate");
      return;
    }
    MpiLayout o(origin.count, *origin.type, MpiLayout::Unit::elements);
    mpi_check(MPI_Get_accumulate(static_cast<const char*>(origin.base) + o.offset(), o.count(),
                                 o.type(), into, r.count(), r.type(), pos(target), at, t.count(),
                                 t.type(), mop, data_of(target)),
              "MPI_Get_accumulate");
  }

  void compare_and_swap(const void* origin, const void* compare, void* result,
                        const Datatype& type, int target, PURE_Aint disp) override {
    const MPI_Datatype t = mpi_memory_type(type.base());
    const auto one_at_a_time = serialise_dynamic();
    mpi_check(MPI_Compare_and_swap(origin, compare, result, t, pos(target),
                                   displacement(target, disp), data_of(target)),
              "MPI_Compare_and_swap");
  }

  void flush(Waiter&, int target, bool local_only, const char*) override {
    if (target < 0) {
      for (MPI_Win w : data_)
        mpi_check(local_only ? MPI_Win_flush_local_all(w) : MPI_Win_flush_all(w),
                  "MPI_Win_flush_all");
    } else {
      mpi_check(local_only ? MPI_Win_flush_local(pos(target), data_of(target))
                           : MPI_Win_flush(pos(target), data_of(target)),
                "MPI_Win_flush");
    }
  }

  void sync() override {
    for (MPI_Win w : data_) mpi_check(MPI_Win_sync(w), "MPI_Win_sync");
  }

  void lock(Waiter& waiter, int target, bool exclusive, const char* call) override {
    const int p = pos(target);
    const MPI_Aint word = where_[static_cast<std::size_t>(target)].slot;
    auto attempt = [&] {
      std::int64_t old = 0;
      if (exclusive) {
        const std::int64_t mine = kExclusive, free = 0;
        mpi_check(MPI_Compare_and_swap(&mine, &free, &old, MPI_INT64_T, p, word, ctrl_),
                  "MPI_Compare_and_swap");
        mpi_check(MPI_Win_flush(p, ctrl_), "MPI_Win_flush");
        return old == 0;
      }
      const std::int64_t one = 1;
      mpi_check(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, p, word, MPI_SUM, ctrl_),
                "MPI_Fetch_and_op");
      mpi_check(MPI_Win_flush(p, ctrl_), "MPI_Win_flush");
      if ((old & kExclusive) == 0) return true;
      // An exclusive holder: take the count back and try again later.
      const std::int64_t back = -1;
      mpi_check(MPI_Accumulate(&back, 1, MPI_INT64_T, p, word, 1, MPI_INT64_T, MPI_SUM, ctrl_),
                "MPI_Accumulate");
      mpi_check(MPI_Win_flush(p, ctrl_), "MPI_Win_flush");
      return false;
    };
    if (!attempt()) waiter.wait_until(attempt, WaitSite{call, target, -1, true});
  }

  void unlock(int target, bool exclusive) override {
    const int p = pos(target);
    const std::int64_t back = exclusive ? -kExclusive : -1;
    mpi_check(MPI_Accumulate(&back, 1, MPI_INT64_T, p, where_[static_cast<std::size_t>(target)].slot,
                             1, MPI_INT64_T, MPI_SUM, ctrl_),
              "MPI_Accumulate");
    mpi_check(MPI_Win_flush(p, ctrl_), "MPI_Win_flush");
  }

  void fence(Waiter& waiter, const char* call) override {
    for (MPI_Win w : data_) mpi_check(MPI_Win_flush_all(w), "MPI_Win_flush_all");
    MPI_Request req;
    mpi_check(MPI_Ibarrier(comm_, &req), "MPI_Ibarrier");
    wait_mpi(waiter, req, call);
    sync();
  }

  void post(int me, const std::vector<int>& origins) override {
    Member& m = member(me);
    reap(m);
    for (int o : origins) {
      MPI_Request req;
      mpi_check(MPI_Isend(nullptr, 0, MPI_BYTE, pos(o), tag(Pscw::post, me, o), comm_, &req),
                "MPI_Isend");
      m.sends.push_back(req);
      mpi_check(MPI_Irecv(nullptr, 0, MPI_BYTE, pos(o), tag(Pscw::complete, o, me), comm_, &req),
                "MPI_Irecv");
      m.completes.push_back(req);
    }
  }

  void await_post(Waiter& waiter, int me, int target, const char* call) override {
    MPI_Request req;
    mpi_check(MPI_Irecv(nullptr, 0, MPI_BYTE, pos(target), tag(Pscw::post, target, me), comm_,
                        &req),
              "MPI_Irecv");
    wait_mpi(waiter, req, call);
  }

  void complete(int me, int target) override {
    Member& m = member(me);
    MPI_Request req;
    mpi_check(MPI_Isend(nullptr, 0, MPI_BYTE, pos(target), tag(Pscw::complete, me, target), comm_,
                        &req),
              "MPI_Isend");
    m.sends.push_back(req);
  }

  bool completed(Waiter& waiter, int me, bool wait, const char* call) override {
    Member& m = member(me);
    auto done = [&] {
      int all = 0;
      mpi_check(MPI_Testall(static_cast<int>(m.completes.size()), m.completes.data(), &all,
                            MPI_STATUSES_IGNORE),
                "MPI_Testall");
      return all != 0;
    };
    if (!done()) {
      if (!wait) return false;
      waiter.wait_until(done, WaitSite{call, -1, -1, true});
    }
    m.completes.clear();
    reap(m);
    return true;
  }

  // Each member attaches to its own slot's MPI window (other members put
  // into it too: under Open MPI one at a time, serialise_dynamic).
  void attach(int me, void* base, PURE_Aint size) override {
    const auto one_at_a_time = serialise_dynamic();
    mpi_check(MPI_Win_attach(data_of(me), base, size), "MPI_Win_attach");
  }

  void detach(int me, const void* base) override {
    const auto one_at_a_time = serialise_dynamic();
    mpi_check(MPI_Win_detach(data_of(me), base), "MPI_Win_detach");
  }

  void shared_query(int target, PURE_Aint* size, int* disp_unit, void** base) override {
    MPI_Aint bytes = 0;
    int unit = 0;
    char* segment = nullptr;
    mpi_check(MPI_Win_shared_query(data_of(target), pos(target), &bytes, &unit, &segment),
              "MPI_Win_shared_query");
    const onesided::Extent& e = (*extents_)[static_cast<std::size_t>(target)];
    *size = static_cast<PURE_Aint>(e.size);
    *disp_unit = e.disp_unit;
    *base = e.size > 0 ? segment + where_[static_cast<std::size_t>(target)].at : nullptr;
  }

  void free(Waiter& waiter, const char* call) override {
    // Every member has arrived: their sends are theirs no more.
    for (Member& m : pscw_) {
      for (MPI_Request& req : m.sends) wait_mpi(waiter, req, call);
      m.sends.clear();
    }
    // Every process's leader arrives before any blocks in the collective
    // MPI_Win_free, whose wait is MPI's (MPICH's spins at full speed, taking
    // a core from the ranks a late process still runs): this wait is the
    // wait loop's, which yields and parks.
    MPI_Request arrived;
    mpi_check(MPI_Ibarrier(comm_, &arrived), "MPI_Ibarrier");
    wait_mpi(waiter, arrived, call);
    for (MPI_Win w : data_) mpi_check(MPI_Win_unlock_all(w), "MPI_Win_unlock_all");
    mpi_check(MPI_Win_unlock_all(ctrl_), "MPI_Win_unlock_all");
    for (MPI_Win& w : data_) mpi_check(MPI_Win_free(&w), "MPI_Win_free");
    mpi_check(MPI_Win_free(&ctrl_), "MPI_Win_free");
    mpi_check(MPI_Comm_free(&comm_), "MPI_Comm_free");
  }

 private:
  // An accumulate (or get-accumulate) of contiguous runs over MPI's int
  // count, as pieces (in_pieces); false when it is not one. The caller holds
  // serialise_dynamic's lock, if any.
  bool accumulate_in_pieces(MPI_Op mop, const onesided::ConstLayout& origin, int target,
                            PURE_Aint disp, std::size_t tcount, const Datatype& ttype,
                            const onesided::Layout* result) {
    const MPI_Datatype element = mpi_memory_type(ttype.base());
    if (element == MPI_DATATYPE_NULL) return false;
    const std::size_t item = item_size(ttype.base());
    if (result && (!result->type->contiguous() ||
                   result->count * result->type->size() != tcount * ttype.size()))
      return false;
    const char* from = static_cast<const char*>(origin.base) + origin.type->true_lb();
    const MPI_Aint at = displacement(target, disp) + ttype.true_lb();
    const bool fetch_only = mop == MPI_NO_OP;
    return in_pieces(
        fetch_only ? tcount : origin.count, fetch_only ? ttype : *origin.type, tcount, ttype, item,
        [&](std::size_t off, int n) {
          const MPI_Aint there = at + static_cast<MPI_Aint>(off);
          if (!result) {
            mpi_check(MPI_Accumulate(from + off, n, element, pos(target), there, n, element, mop,
                                     data_of(target)),
                      "MPI_Accumulate");
            return;
          }
          char* into = static_cast<char*>(result->base) + result->type->true_lb() + off;
          mpi_check(MPI_Get_accumulate(fetch_only ? nullptr : from + off, fetch_only ? 0 : n,
                                       element, into, n, element, pos(target), there, n, element,
                                       mop, data_of(target)),
                    "MPI_Get_accumulate");
        });
  }

  // One member's PSCW messages in flight; only its own thread touches them.
  struct Member {
    std::vector<MPI_Request> sends;
    std::vector<MPI_Request> completes;
  };
  Member& member(int rank) {
    return pscw_[static_cast<std::size_t>(local_of_[static_cast<std::size_t>(rank)])];
  }
  // Drops the sends that have left.
  static void reap(Member& m) {
    auto left = [](MPI_Request& r) {
      int done = 0;
      mpi_check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
      return done != 0;
    };
    m.sends.erase(std::remove_if(m.sends.begin(), m.sends.end(), left), m.sends.end());
  }

  // Open MPI 4.1's osc/ucx keeps the remote keys of a dynamic window's
  // attached regions in a cache that two threads calling it at once corrupt:
  // one key is overwritten unreleased (its finalize then warns that rkeys
  // were not returned), so a thread may use the other's. The members of a
  // process therefore address a dynamic window one at a time; other
  // flavours expose fixed memory and need no such cache. MPICH needs none.
  std::unique_lock<std::mutex> serialise_dynamic() {
#ifdef OPEN_MPI
    if (flavor_ == Flavor::dynamic) return std::unique_lock<std::mutex>(dynamic_);
#endif
    return {};
  }

  int pos(int rank) const { return where_[static_cast<std::size_t>(rank)].pos; }
  // The MPI window holding window rank `rank`'s memory: its slot's for
  // create and dynamic windows, the one block's otherwise.
  MPI_Win data_of(int rank) const {
    if (data_.size() == 1) return data_[0];
    return data_[static_cast<std::size_t>(where_[static_cast<std::size_t>(rank)].slot)];
  }
  MPI_Aint displacement(int rank, PURE_Aint disp) const {
    if (flavor_ == Flavor::dynamic) return static_cast<MPI_Aint>(disp);
    const std::size_t r = static_cast<std::size_t>(rank);
    return where_[r].at + static_cast<MPI_Aint>(disp) * (*extents_)[r].disp_unit;
  }
  int tag(Pscw kind, int from, int to) const {
    const std::size_t f = static_cast<std::size_t>(from), t = static_cast<std::size_t>(to);
    return (((static_cast<int>(kind) << tag_bits_) | where_[f].slot) << tag_bits_) | where_[t].slot;
  }

  const Flavor flavor_;
  MPI_Comm comm_;
  std::vector<MPI_Win> data_;  // one, or one per slot (window_net.h)
  MPI_Win ctrl_;
  const std::vector<Where> where_;  // by window rank
  const std::shared_ptr<const std::vector<onesided::Extent>> extents_;
  const std::vector<int>& local_of_;
  const int tag_bits_;
  std::vector<Member> pscw_;  // by local index
  std::mutex dynamic_;        // serialise_dynamic()
};

// What each process tells the others about each of its members.
struct MemberInfo {
  std::int64_t size;
  std::int64_t disp_unit;
};

}  // namespace

bool windows_span_processes() { return g_spanning_windows.load(std::memory_order_relaxed) != 0; }

void WindowNetMaker::make(onesided::SharedWindow& w, const onesided::CreateArgs& args,
                          Waiter& waiter) {
  CommNet& net = net_of(comm_);
  hier::Stage stage(member_, comm_, args.call);
  const int locals = w.size();

  // Every process learns every member's extent.
  std::vector<char> mine(static_cast<std::size_t>(locals) * sizeof(MemberInfo));
  for (int i = 0; i < locals; ++i) {
    const onesided::Target& t = w.target(i);
    const MemberInfo info{t.size, t.disp_unit};
    std::memcpy(mine.data() + static_cast<std::size_t>(i) * sizeof info, &info, sizeof info);
  }
  const std::vector<std::vector<char>> blobs = stage.allgather(mine);

  // Offsets of the members' parts in their process's block: each part on a
  // cache line for allocate windows, back to back for shared ones.
  const bool packed = args.flavor == Flavor::shared;
  auto part = [&](std::int64_t size) {
    return packed ? size : (size + static_cast<std::int64_t>(kCacheLine) - 1) /
                               static_cast<std::int64_t>(kCacheLine) *
                               static_cast<std::int64_t>(kCacheLine);
  };
  const std::size_t n = static_cast<std::size_t>(comm_.size());
  auto extents = std::make_shared<std::vector<onesided::Extent>>(n);
  std::vector<Where> where(n);
  std::vector<std::int64_t> used(net.procs.size(), 0);
  for (std::size_t r = 0; r < n; ++r) {
    const int p = net.pos_of[r], slot = net.slot_of[r];
    MemberInfo info;
    std::memcpy(&info, blobs[static_cast<std::size_t>(p)].data() + static_cast<std::size_t>(slot) * sizeof info,
                sizeof info);
    (*extents)[r] = {info.size, static_cast<int>(info.disp_unit)};
    MPI_Aint at = 0;
    if (args.flavor == Flavor::allocate || args.flavor == Flavor::shared) {
      at = static_cast<MPI_Aint>(used[static_cast<std::size_t>(p)]);
      used[static_cast<std::size_t>(p)] += part(info.size);
    }
    where[r] = {p, slot, at};
  }

  const int tag_bits = bits_for(net.slots());
  void* attr = nullptr;
  int flag = 0;
  mpi_check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &attr, &flag), "MPI_Comm_get_attr");
  const long long tag_ub = flag ? *static_cast<int*>(attr) : 32767;
  if ((3LL << (2 * tag_bits)) - 1 > tag_ub)
    fail(PURE_ERR_OTHER,
         "PSCW between processes needs MPI tags up to %lld, over the MPI library's MPI_TAG_UB "
         "of %lld (too many ranks per process)",
         (3LL << (2 * tag_bits)) - 1, tag_ub);

  MPI_Comm comm = MPI_COMM_NULL;
  mpi_check(MPI_Comm_dup(net.coll, &comm), "MPI_Comm_dup");
  mpi_check(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  std::vector<MPI_Win> data;
  MPI_Win ctrl = MPI_WIN_NULL;
  const MPI_Aint block_bytes = static_cast<MPI_Aint>(used[static_cast<std::size_t>(net.my_pos)]);
  char* block = nullptr;
  switch (args.flavor) {
    case Flavor::allocate:
      data.push_back(MPI_WIN_NULL);
      check_window(MPI_Win_allocate(block_bytes, 1, MPI_INFO_NULL, comm, &block, &data[0]),
                   "MPI_Win_allocate");
      break;
    case Flavor::shared: {
      data.push_back(MPI_WIN_NULL);
      const int rc =
          MPI_Win_allocate_shared(block_bytes, 1, MPI_INFO_NULL, comm, &block, &data[0]);
      if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        fail(PURE_ERR_RMA_SHARED,
             "the processes of %s cannot share memory (MPI_Win_allocate_shared: %.*s)",
             comm_.name().c_str(), len, text);
      }
      break;
    }
    case Flavor::create:
    case Flavor::dynamic: {
      // One MPI window per slot, in which each process exposes (or, for
      // dynamic windows, attaches) the memory of its member at that slot:
      // an MPI window never holds two members' pieces of memory. Open MPI
      // 4.1's osc/ucx crashes (in MPI_Get and MPI_Win_free) on a dynamic
      // window with several pieces attached, which one dynamic MPI window
      // for all the members of a process was.
      std::vector<const onesided::Target*> at_slot(static_cast<std::size_t>(net.slots()),
                                                   nullptr);
      for (int i = 0; i < locals; ++i) {
        const int r = comm_.group().rank_of(w.target(i).world);
        at_slot[static_cast<std::size_t>(net.slot_of[static_cast<std::size_t>(r)])] =
            &w.target(i);
      }
      for (const onesided::Target* t : at_slot) {
        data.push_back(MPI_WIN_NULL);
        if (args.flavor == Flavor::dynamic) {
          check_window(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &data.back()),
                       "MPI_Win_create_dynamic");
        } else {
          const bool some = t && t->size > 0;
          check_window(MPI_Win_create(some ? t->base : nullptr,
                                      some ? static_cast<MPI_Aint>(t->size) : 0, 1,
                                      MPI_INFO_NULL, comm, &data.back()),
                       "MPI_Win_create");
        }
      }
      break;
    }
  }
  for (MPI_Win d : data)
    mpi_check(MPI_Win_set_errhandler(d, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  if (block) {
    for (int i = 0; i < locals; ++i) {
      const std::size_t r = static_cast<std::size_t>(comm_.group().rank_of(w.target(i).world));
      // A member without memory has no address (MPI_Win_shared_query gives
      // it none), as within one process.
      w.target(i).base = w.target(i).size > 0 ? block + where[r].at : nullptr;
    }
  }
  std::int64_t* words = nullptr;
  check_window(MPI_Win_allocate(static_cast<MPI_Aint>(locals) * 8, 8, MPI_INFO_NULL, comm,
                                &words, &ctrl),
               "MPI_Win_allocate");
  mpi_check(MPI_Win_set_errhandler(ctrl, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  for (int i = 0; i < locals; ++i) words[i] = 0;
  for (MPI_Win d : data) mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, d), "MPI_Win_lock_all");
  mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, ctrl), "MPI_Win_lock_all");
  // The lock words are zero everywhere before anyone takes a lock.
  MPI_Request req;
  mpi_check(MPI_Ibarrier(comm, &req), "MPI_Ibarrier");
  wait_mpi(waiter, req, args.call);

  w.extents = extents;
  w.remote = std::make_shared<WindowNet>(args.flavor, comm, std::move(data), ctrl, std::move(where), extents,
                                         w.local_of(), locals, tag_bits);
}

}  // namespace pure
