// Data movement: barrier, bcast, gather(v), scatter(v), allgather(v),
// alltoall(v). Every member publishes pointers to its buffers and the readers
// copy straight from one layout into the other (one copy, any datatypes);
// a closing barrier round keeps the published buffers alive until every
// reader is done. Alltoall(v) goes through the Dropbox's alltoall ring
// (ring.h) instead: blocks of up to kPayloadBytes travel inline, so a small
// alltoall has no closing barrier (a member waits only for its own column);
// a bigger block goes as a pointer and its sender waits only for that
// block's reader. Small bcasts (up to kPayloadBytes) go through the
// Dropbox's bcast ring (ring.h), so the root leaves at once and waits only
// when it has run kRingDepth calls ahead of a reader; medium ones through a
// double-buffered result buffer, so the root does not wait for readers.
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/collectives.h"
#include "collectives/pair.h"
#include "collectives/round.h"

namespace pure::coll {

namespace {

// From this many bytes on, bcast readers copy straight from the root's buffer
// (one copy, but the root stays until a closing barrier); below it the root
// copies into a double-buffered result and leaves at once. This is not the
// reductions' PURE_REDUCE_PARTITION: it trades a copy against a wait, and
// keeps the 2 KiB the two shared before that one was measured
// (docs/perf-notes.md).
constexpr std::size_t kBcastDirectBytes = 2048;

const char* at(const void* base, long long displ, const Datatype& type) {
  return static_cast<const char*>(base) + displ * type.extent();
}
char* at(void* base, long long displ, const Datatype& type) {
  return static_cast<char*>(base) + displ * type.extent();
}

// Copies one member's block into another's; a size mismatch is recorded
// (the first one wins) and only the bytes that fit both are copied, so a
// wrong count never overruns a buffer.
struct Mover {
  std::string error;

  void mismatch(std::size_t sbytes, std::size_t rbytes, int from, int to) {
    if (sbytes != rbytes && error.empty()) {
      error = "rank " + std::to_string(from) + " sends " + std::to_string(sbytes) +
              " bytes but rank " + std::to_string(to) + " expects " + std::to_string(rbytes) +
              " (send and receive counts and types must match)";
    }
  }
  void move(const void* src, std::size_t scount, const Datatype& stype, int from, void* dst,
            std::size_t rcount, const Datatype& rtype, int to) {
    const std::size_t sbytes = scount * stype.size();
    const std::size_t rbytes = rcount * rtype.size();
    mismatch(sbytes, rbytes, from, to);
    const std::size_t bytes = std::min(sbytes, rbytes);
    if (bytes != 0) copy_range(src, scount, stype, dst, rcount, rtype, 0, bytes);
  }
  // A mismatch of calls behind the sizes is reported instead (call_log.h).
  void report(const Comm& comm) const {
    if (!error.empty()) fail_disagreement(comm, PURE_ERR_TRUNCATE, error);
  }
};

// A member of a bcast expects `bytes` where the root sends `sent` (-1: an
// amount this member does not know).
[[noreturn]] void bcast_mismatch(const Comm& comm, std::size_t bytes, int root, long long sent) {
  const std::string amount = sent < 0 ? "a different amount" : std::to_string(sent);
  fail_disagreement(comm, PURE_ERR_COUNT,
                    "bcast size mismatch: rank " + std::to_string(comm.rank()) + " expects " +
                        std::to_string(bytes) + " bytes but root " + std::to_string(root) +
                        " sends " + amount + " (counts and types must match)");
}

// Small bcast through the ring (ring.h): the root leaves as soon as the data
// is in its slot; it waits only when every slot is still being read.
void ring_bcast(Member& member, Comm& comm, const char* call, void* buf, std::size_t count,
                const Datatype& type, std::size_t bytes, int root) {
  Dropbox& box = dropbox(comm);
  const int me = comm.rank();
  RingCursor& cursor = box.cursor(me);
  const std::uint64_t t = ++cursor.bcasts;
  Line& slot = box.bcast_slot(t);
  if (me == root) {
    if (t > kRingDepth && cursor.bcast_free < t - kRingDepth) {
      const std::uint64_t need = t - kRingDepth;
      std::uint64_t low = t;
      for (int k = 0; k < comm.size(); ++k) {
        if (k == me) continue;
        RingCursor& other = box.cursor(k);
        std::uint64_t seen = other.bcast_read.load(std::memory_order_acquire);
        if (seen < need) {
          // Announce ourselves before the wait loop's re-check (ring.h).
          other.waker.store(me + 1, std::memory_order_relaxed);
          std::atomic_thread_fence(std::memory_order_seq_cst);
          member.wait_until(
              [&] { return (seen = other.bcast_read.load(std::memory_order_acquire)) >= need; },
              collective_site(call, k, comm));
          other.waker.store(0, std::memory_order_relaxed);
        }
        low = std::min(low, seen);
      }
      cursor.bcast_free = low;
    }
    slot.check = static_cast<std::int64_t>(bytes);
    pack(buf, count, type, 0, slot.payload.data, bytes);
    slot.seq.store(t, std::memory_order_release);
    cursor.bcast_read.store(t, std::memory_order_release);
    dropbox(comm).wake_others(comm.rank());
    return;
  }
  if (slot.seq.load(std::memory_order_acquire) < t) {
    member.wait_until([&] { return slot.seq.load(std::memory_order_acquire) >= t; },
                    collective_site(call, root, comm));
  }
  const std::int64_t sent = slot.check;
  // The root runs ahead of us (that is what the ring is for): its next slot
  // is likely written already, so start fetching it.
  __builtin_prefetch(&box.bcast_slot(t + 1));
  if (sent == static_cast<std::int64_t>(bytes)) unpack(slot.payload.data, bytes, buf, count, type, 0);
  // Done with the slot: the root that comes back to it may be waiting.
  // Said every kRingPublishBatch calls only (ring.h): a root that has
  // filled the ring polls this line, and a store every call would wait
  // for it in the fence below.
  if (t % kRingPublishBatch == 0) {
    cursor.bcast_read.store(t, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const int waker = cursor.waker.load(std::memory_order_relaxed);
    if (waker != 0) box.wake(waker - 1);
  }
  if (sent != static_cast<std::int64_t>(bytes)) bcast_mismatch(comm, bytes, root, sent);
}

// Alltoall receiver: copies the block that sender `from` published on line
// `l` into dst (rcount items of rtype), inline or from the sender's
// pointers, noting a size mismatch in `mover`. True if it came by pointer
// (its sender waits for our `read`).
bool take_block(const Line& l, int from, int me, void* dst, std::size_t rcount,
                const Datatype& rtype, Mover& mover) {
  const std::size_t sbytes = static_cast<std::size_t>(l.check);
  if (sbytes <= kPayloadBytes) {
    const std::size_t rbytes = rcount * rtype.size();
    mover.mismatch(sbytes, rbytes, from, me);
    const std::size_t bytes = std::min(sbytes, rbytes);
    if (bytes != 0) unpack(l.payload.data, bytes, dst, rcount, rtype, 0);
    return false;
  }
  const Pointers& p = l.payload.p;
  mover.move(p.in, static_cast<std::size_t>(p.count), *p.type, from, dst, rcount, rtype, me);
  return true;
}

// Alltoall receiver, once its whole column of call t is in.
void column_read(Comm& comm, Line* ring, std::uint64_t t, bool pointed) {
  const int me = comm.rank();
  const int n = comm.size();
  // Our lines of call t+1 are those of call t-1, whose readers are all done
  // (ring.h): take them exclusive now, ahead of the next call's stores.
  for (int j = 1; j < n; ++j)
    prefetch_for_write(&Dropbox::a2a_slot(ring, n, me, (me + j) % n, t + 1));
  // Done with our column of call t. Only senders of pointers wait for that,
  // and only for this call, so without one here nobody needs a wake-up.
  // The release pairs with their acquire load in wait_read: our copies out
  // of their blocks are done before they see t.
  AlltoallCursor& cursor = dropbox(comm).a2a_cursor(me);
  cursor.read.store(t, std::memory_order_release);
  if (pointed) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (cursor.waiters.load(std::memory_order_relaxed) != 0) dropbox(comm).wake_others(comm.rank());
  }
}

}  // namespace

void barrier(Member& member, Comm& comm, const char* call) {
  if (comm.size() == 1) return;
  Round r(member, comm, call);
  r.barrier();
}

void bcast(Member& member, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root) {
  if (comm.size() == 1) return;
  const std::size_t bytes = count * type.size();
  if (bytes <= kPayloadBytes) {
    ring_bcast(member, comm, call, buf, count, type, bytes, root);
    return;
  }
  Round r(member, comm, call);
  const bool is_root = r.me() == root;
  Line& mine = r.mine();
  // Large: the root's line carries Pointers.
  mine.check = bytes < kBcastDirectBytes ? static_cast<std::int64_t>(bytes) : r.tagged(bytes);
  auto check_root = [&] {
    if (r.of(root).check != mine.check)
      bcast_mismatch(comm, bytes, root, check_bytes(r.of(root).check));
  };

  if (bytes < kBcastDirectBytes) {
    r.arrive(root);
    if (is_root) {
      // Every member arrived at this round, so every reader of the same
      // parity's result (two rounds ago) is done; readers of this round are
      // not waited for.
      r.wait_all(r.seq());
      std::vector<unsigned char>& result = r.box().result(r.seq());
      result.resize(bytes);
      pack(buf, count, type, 0, result.data(), bytes);
      r.release();
      return;
    }
    r.wait_release();
    check_root();
    unpack(r.box().result(r.seq()).data(), bytes, buf, count, type, 0);
    return;
  }

  // Large: everyone copies straight from the root's buffer.
  if (is_root) {
    mine.payload.p.in = buf;
    mine.payload.p.type = &type;
    mine.payload.p.count = static_cast<std::int64_t>(count);
  }
  // The root publishes only once everyone has arrived, so a member that
  // sees the root's arrival knows every member arrived (see dropbox.h).
  if (is_root) {
    r.wait_others(r.seq());
    r.arrive(Round::kEveryone);
  } else {
    r.arrive(root);
  }
  bool ok = true;
  if (!is_root) {
    r.wait_arrival(root, r.seq());
    const Pointers& from = r.of(root).payload.p;
    ok = r.of(root).check == mine.check;
    if (ok) copy_range(from.in, static_cast<std::size_t>(from.count), *from.type, buf, count, type,
                       0, bytes);
  }
  r.next();
  r.barrier();
  if (!ok) bcast_mismatch(comm, bytes, root, -1);
}

void gatherv(Member& member, Comm& comm, const char* call, const void* send, std::size_t scount,
             const Datatype* stype, void* recv, const int* rcounts, const int* displs,
             const Datatype* rtype, int root) {
  const int me = comm.rank();
  Mover mover;
  if (comm.size() == 1) {
    if (send) mover.move(send, scount, *stype, me, at(recv, displs[me], *rtype),
                         static_cast<std::size_t>(rcounts[me]), *rtype, me);
    mover.report(comm);
    return;
  }
  Round r(member, comm, call);
  Line& mine = r.mine();
  mine.check = r.tagged(0);
  if (me != root) {
    mine.payload.p.in = send;
    mine.payload.p.type = stype;
    mine.payload.p.count = static_cast<std::int64_t>(scount);
    r.arrive(root);
    r.wait_release();
    return;
  }
  r.arrive(Round::kNobody);
  for (int k = 0; k < r.size(); ++k) {
    void* dst = at(recv, displs[k], *rtype);
    const std::size_t rc = static_cast<std::size_t>(rcounts[k]);
    if (k == me) {
      if (send) mover.move(send, scount, *stype, k, dst, rc, *rtype, me);
      continue;
    }
    r.wait_arrival(k, r.seq());
    if (r.of(k).check != mine.check) r.release_error(PURE_ERR_OTHER, r.other_collective(k));
    const Pointers& from = r.of(k).payload.p;
    mover.move(from.in, static_cast<std::size_t>(from.count), *from.type, k, dst, rc, *rtype, me);
  }
  if (!mover.error.empty()) r.release_error(PURE_ERR_TRUNCATE, mover.error);
  r.release();
}

void scatterv(Member& member, Comm& comm, const char* call, const void* send, const int* scounts,
              const int* displs, const Datatype* stype, void* recv, std::size_t rcount,
              const Datatype* rtype, int root) {
  const int me = comm.rank();
  Mover mover;
  if (comm.size() == 1) {
    if (recv) mover.move(at(send, displs[me], *stype), static_cast<std::size_t>(scounts[me]),
                         *stype, me, recv, rcount, *rtype, me);
    mover.report(comm);
    return;
  }
  Round r(member, comm, call);
  Line& mine = r.mine();
  mine.check = r.tagged(0);
  if (me == root) {
    // The counts and displacements go out from this member's own storage,
    // not the caller's frame: an error this member meets while the others
    // still copy (a mismatch found in the closing barrier) unwinds that
    // frame before the job's end lets them stop.
    const std::size_t n = static_cast<std::size_t>(r.size());
    member.published.assign(scounts, scounts + n);
    member.published.insert(member.published.end(), displs, displs + n);
    mine.payload.p = Pointers{send, nullptr, stype, member.published.data(),
                              member.published.data() + n, 0};
    r.wait_others(r.seq());  // as in bcast: our arrival tells that everyone arrived
    r.arrive(Round::kEveryone);
    if (recv) mover.move(at(send, displs[me], *stype), static_cast<std::size_t>(scounts[me]),
                         *stype, me, recv, rcount, *rtype, me);
  } else {
    r.arrive(root);
    r.wait_arrival(root, r.seq());
    if (r.of(root).check != mine.check) r.fail_other_collective(root);
    const Pointers& from = r.of(root).payload.p;
    mover.move(at(from.in, from.displs[me], *from.type), static_cast<std::size_t>(from.counts[me]),
               *from.type, root, recv, rcount, *rtype, me);
  }
  r.next();
  r.barrier();
  mover.report(comm);
}

void allgatherv(Member& member, Comm& comm, const char* call, const void* send, std::size_t scount,
                const Datatype* stype, void* recv, const int* rcounts, const int* displs,
                const Datatype* rtype) {
  const int me = comm.rank();
  Mover mover;
  if (comm.size() == 1) {
    if (send) mover.move(send, scount, *stype, me, at(recv, displs[me], *rtype),
                         static_cast<std::size_t>(rcounts[me]), *rtype, me);
    mover.report(comm);
    return;
  }
  Round r(member, comm, call);
  Line& mine = r.mine();
  mine.check = r.tagged(0);
  if (send) {
    mine.payload.p = Pointers{send, nullptr, stype, nullptr, nullptr,
                              static_cast<std::int64_t>(scount)};
  } else {  // in place: our block of the receive buffer is our contribution
    mine.payload.p = Pointers{at(recv, displs[me], *rtype), nullptr, rtype, nullptr, nullptr,
                              rcounts[me]};
  }
  r.arrive(me == 0 ? Round::kNobody : 0);
  if (me == 0) {
    r.wait_all(r.seq());
    r.check_tags();
    r.release();
  } else {
    r.wait_release();
  }
  for (int k = 0; k < r.size(); ++k) {
    if (k == me && !send) continue;
    const Pointers& from = r.of(k).payload.p;
    mover.move(from.in, static_cast<std::size_t>(from.count), *from.type, k,
               at(recv, displs[k], *rtype), static_cast<std::size_t>(rcounts[k]), *rtype, me);
  }
  r.next();
  r.barrier();
  mover.report(comm);
}

void alltoallv(Member& member, Comm& comm, const char* call, const void* send, const int* scounts,
               const int* sdispls, const Datatype* stype, void* recv, const int* rcounts,
               const int* rdispls, const Datatype* rtype) {
  const int me = comm.rank();
  const int n = comm.size();
  Mover mover;
  if (n == 1) {
    // In place, our one block already is where it belongs.
    if (send)
      mover.move(at(send, sdispls[0], *stype), static_cast<std::size_t>(scounts[0]), *stype, 0,
                 at(recv, rdispls[0], *rtype), static_cast<std::size_t>(rcounts[0]), *rtype, 0);
    mover.report(comm);
    return;
  }
  // Through the alltoall ring (ring.h): blocks that fit a line travel inline,
  // bigger ones as pointers that the sender keeps alive until its reader is done.
  Dropbox& box = dropbox(comm);
  AlltoallCursor& cursor = box.a2a_cursor(me);
  Line* ring = box.a2a_ring();
  const std::uint64_t t = ++cursor.calls;

  // What we send: our send buffer, or in place the receive buffer's layout.
  const void* src = send;
  const int* sc = scounts;
  const int* sd = sdispls;
  const Datatype* st = stype;
  if (!send) {
    src = recv;
    sc = rcounts;
    sd = rdispls;
    st = rtype;
  }
  const std::size_t item = st->size();
  auto block_bytes = [&](int k) { return static_cast<std::size_t>(sc[k]) * item; };
  bool pointers = false;  // some block goes by pointer (its reader copies it later)
  for (int k = 0; k < n; ++k)
    if (k != me && block_bytes(k) > kPayloadBytes) pointers = true;
  if (!send && pointers) {
    // In place: readers of our pointers would see our blocks being
    // overwritten, so publish a copy with the receive layout.
    std::ptrdiff_t lo = 0, hi = 0;
    bool any = false;
    for (int k = 0; k < n; ++k) {
      if (rcounts[k] == 0) continue;
      const std::ptrdiff_t b = rdispls[k] * rtype->extent() + rtype->true_lb();
      const std::ptrdiff_t e = (static_cast<std::ptrdiff_t>(rdispls[k]) + rcounts[k] - 1) *
                                   rtype->extent() +
                               rtype->true_lb() + rtype->true_extent();
      lo = any ? std::min(lo, b) : b;
      hi = any ? std::max(hi, e) : e;
      any = true;
    }
    std::vector<unsigned char>& copy = member.input;
    copy.resize(static_cast<std::size_t>(std::max<std::ptrdiff_t>(1, hi - lo)));
    void* base = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(copy.data()) -
                                         static_cast<std::uintptr_t>(lo));
    for (int k = 0; k < n; ++k) {
      if (rcounts[k] == 0 || k == me) continue;
      const std::size_t c = static_cast<std::size_t>(rcounts[k]);
      copy_range(at(recv, rdispls[k], *rtype), c, *rtype, at(base, rdispls[k], *rtype), c,
                 *rtype, 0, c * rtype->size());
    }
    src = base;
  }

  // Until member k has copied out its column of call `need` or later.
  auto wait_read = [&](int k, std::uint64_t need) {
    AlltoallCursor& other = box.a2a_cursor(k);
    if (other.read.load(std::memory_order_acquire) >= need) return;
    // Count ourselves before the wait loop's re-check (ring.h).
    other.waiters.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    member.wait_until([&] { return other.read.load(std::memory_order_acquire) >= need; },
                    collective_site(call, k, comm));
    other.waiters.fetch_sub(1, std::memory_order_relaxed);
  };
#ifndef NDEBUG
  // Our lines of call t were last used by call t - kAlltoallDepth, which
  // every reader has finished (ring.h says why); no wait needed.
  if (t > kAlltoallDepth)
    for (int k = 0; k < n; ++k)
      assert(k == me ||
             box.a2a_cursor(k).read.load(std::memory_order_acquire) >= t - kAlltoallDepth);
#endif

  // Send: one line per receiver, starting with the next member so that the
  // members do not all write to the same one first.
  for (int j = 1; j < n; ++j) {
    const int k = (me + j) % n;
    Line& l = Dropbox::a2a_slot(ring, n, me, k, t);
    const std::size_t bytes = block_bytes(k);
    l.check = static_cast<std::int64_t>(bytes);
    if (bytes <= kPayloadBytes) {
      if (bytes != 0)
        pack(at(src, sd[k], *st), static_cast<std::size_t>(sc[k]), *st, 0, l.payload.data, bytes);
    } else {
      l.payload.p = Pointers{at(src, sd[k], *st), nullptr, st, nullptr, nullptr, sc[k]};
    }
    l.seq.store(t, std::memory_order_release);
  }
  // Wake the receivers once every line is out: the first notify's fence then
  // waits for all our stores at once instead of one after the other.
  dropbox(comm).wake_others(comm.rank());
  if (send)
    mover.move(at(send, sdispls[me], *stype), static_cast<std::size_t>(scounts[me]), *stype, me,
               at(recv, rdispls[me], *rtype), static_cast<std::size_t>(rcounts[me]), *rtype, me);

  // Receive our column, first from the member that wrote to us first.
  bool pointed = false;  // some sender gave us a pointer (and waits for our `read`)
  for (int j = 1; j < n; ++j) {
    const int k = (me - j + n) % n;
    Line& l = Dropbox::a2a_slot(ring, n, k, me, t);
    // The sender's release store of t pairs with this acquire load: its
    // check and block (or pointers) are visible once t is.
    auto arrived = [&] { return l.seq.load(std::memory_order_acquire) >= t; };
    member.wait_until(arrived, collective_site(call, k, comm), kWaitTight);
    if (take_block(l, k, me, at(recv, rdispls[k], *rtype), static_cast<std::size_t>(rcounts[k]),
                   *rtype, mover))
      pointed = true;
  }
  column_read(comm, ring, t, pointed);

  // Our pointed-to blocks must stay put until their readers are done.
  if (pointers) {
    for (int k = 0; k < n; ++k)
      if (k != me && block_bytes(k) > kPayloadBytes) wait_read(k, t);
  }
  mover.report(comm);
}

void pair_alltoall_receive(Comm& comm, std::uint64_t t, void* dst,
                           std::size_t rcount, PURE_Datatype rtype) {
  const int me = comm.rank();
  Line* ring = dropbox(comm).a2a_ring();
  Mover mover;
  const bool pointed = take_block(Dropbox::a2a_slot(ring, 2, 1 - me, me, t), 1 - me, me, dst,
                                  rcount, *Datatype::predefined(predefined_type_index(rtype)),
                                  mover);
  column_read(comm, ring, t, pointed);
  mover.report(comm);
}

}  // namespace pure::coll
