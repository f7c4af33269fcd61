// Collectives on intercommunicators (intercomm.h): data moves from one
// group to the other. Each is composed of the collectives of each group's
// own communicator and point-to-point messages on the bridge, mostly
// between the two groups' leaders (their rank 0):
//
//   bcast       root -> the other leader; a bcast in its group
//   reduce      a reduce to the leader of the group without the root;
//               leader -> root
//   allreduce   a reduce to each leader; the leaders swap results; a bcast
//               in each group
//   gather(v)   the sending group gathers sizes and bytes at its leader;
//               leader -> root, which unpacks each member's block
//   scatter(v)  root -> the other leader (sizes and bytes); a scatterv in
//               its group
//   allgather(v) as gather in both groups; the leaders swap; a bcast of
//               sizes and bytes in each group
//   alltoall(v) every member sends to every member of the other group
//   reduce_scatter(_block)  as allreduce, then a scatterv in each group
//
// What a leader receives from the other group is checked against what it
// expected (exchange.h); a failure there reaches the leader's whole group
// in a bcast (at_leader), so that no member is left waiting.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "base/error.h"
#include "base/handle.h"
#include "composite/exchange.h"
#include "composite/intercomm.h"
#include "composite/route.h"

namespace pure::inter {

namespace {

enum Tag { kBcast = 1, kReduce, kAllreduce, kReduceScatter, kGather, kScatter, kAllgather,
           kAlltoall };

std::size_t at(int i) { return static_cast<std::size_t>(i); }

const Datatype& bytes() { return *Datatype::predefined(handle_index(PURE_BYTE)); }

TypeRef ref(const Datatype* type) {
  TypeRef t;
  t.type = type;
  return t;
}

char* at(void* base, long long displ, const Datatype& type) {
  return static_cast<char*>(base) + displ * static_cast<long long>(type.extent());
}
const char* at(const void* base, long long displ, const Datatype& type) {
  return static_cast<const char*>(base) + displ * static_cast<long long>(type.extent());
}

int int_count(std::uint64_t bytes, const char* call) {
  if (bytes > 0x7fffffffu)
    fail(PURE_ERR_COUNT, "%s: %llu bytes from one member is over the limit of 2^31-1", call,
         static_cast<unsigned long long>(bytes));
  return static_cast<int>(bytes);
}

// Storage laid out as `count` elements of `type`.
class Scratch {
 public:
  Scratch(std::size_t count, const Datatype& type) {
    if (count == 0) return;
    const long long span = static_cast<long long>(type.true_extent()) +
                           static_cast<long long>(count - 1) * static_cast<long long>(type.extent());
    mem_.resize(static_cast<std::size_t>(span > 0 ? span : 1));
    base_ = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(mem_.data()) -
                                    static_cast<std::uintptr_t>(type.true_lb()));
  }
  void* get() const { return base_; }

 private:
  std::vector<unsigned char> mem_;
  void* base_ = nullptr;
};

// Runs the leader's part at rank 0 of `group`, then tells the group how it
// went, so that its failure is every member's.
template <class Part>
void at_leader(Context& cx, Comm& group, const char* call, Part&& part) {
  struct Outcome {
    int code;
    char text[252];
  } out{};
  if (group.rank() == 0) {
    try {
      part();
    } catch (const Error& e) {
      out.code = e.code();
      std::snprintf(out.text, sizeof out.text, "%s", e.what());
    }
  }
  route::bcast(cx.member, group, call, &out, sizeof out, bytes(), 0);
  if (out.code) fail(out.code, "%s", out.text);
}

int remote_leader(const Comm& ic) { return ic.remote_group().world_of(0); }

// The group's data as bytes at its leader: each member's size, then the
// members' blocks in rank order.
struct Blocks {
  std::vector<std::uint64_t> sizes;
  std::vector<char> data;
};

Blocks gather_group(Context& cx, Comm& g, const char* call, const void* send, std::size_t scount,
                    const Datatype& stype) {
  const int n = g.size();
  const bool leader = g.rank() == 0;
  const std::uint64_t mine = scount * stype.size();
  Blocks b;
  if (leader) b.sizes.resize(at(n));
  std::vector<int> eights(at(n), 8), offsets(at(n));
  for (int k = 0; k < n; ++k) offsets[at(k)] = 8 * k;
  route::gatherv(cx.member, g, call, static_cast<const void*>(&mine), std::size_t{8}, &bytes(),
                 static_cast<void*>(b.sizes.data()), eights.data(), offsets.data(), &bytes(), 0);
  std::vector<int> counts(leader ? at(n) : 0), displs(counts.size());
  std::size_t total = 0;
  for (int k = 0; leader && k < n; ++k) {
    counts[at(k)] = int_count(b.sizes[at(k)], call);
    displs[at(k)] = int_count(total, call);
    total += b.sizes[at(k)];
  }
  b.data.resize(total);
  route::gatherv(cx.member, g, call, send, scount, &stype, static_cast<void*>(b.data.data()),
                 counts.data(), displs.data(), &bytes(), 0);
  return b;
}

// Sends a group's blocks to world rank `to`: sizes, then bytes.
void send_blocks(Exchange& x, int to, const Blocks& b, int tag) {
  x.send_bytes(to, b.sizes.data(), b.sizes.size() * 8, tag);
  x.send_bytes(to, b.data.data(), b.data.size(), tag);
}

// Receives the blocks of a group of `n` from world rank `from`.
Blocks recv_blocks(Context& cx, const Comm& bridge, const char* call, int from, int n, int tag) {
  Blocks b;
  b.sizes.resize(at(n));
  {
    Exchange x(cx, bridge, call);
    x.recv_bytes(from, b.sizes.data(), b.sizes.size() * 8, tag);
    x.wait();
  }
  std::size_t total = 0;
  for (std::uint64_t s : b.sizes) total += s;
  b.data.resize(total);
  Exchange x(cx, bridge, call);
  x.recv_bytes(from, b.data.data(), total, tag);
  x.wait();
  return b;
}

// Unpacks block k of `b` (from the other group's rank k) into the caller's
// receive layout, checking its size.
void unpack_blocks(const Blocks& b, void* recv, const int* rcounts, const int* displs,
                   const Datatype& rtype, int me, const char* call) {
  std::size_t off = 0;
  for (std::size_t k = 0; k < b.sizes.size(); ++k) {
    const std::size_t want = static_cast<std::size_t>(rcounts[k]) * rtype.size();
    if (b.sizes[k] != want)
      fail(PURE_ERR_TRUNCATE,
           "%s: rank %zu of the other group sends %llu bytes but rank %d expects %zu (send and "
           "receive counts and types must match)",
           call, k, static_cast<unsigned long long>(b.sizes[k]), me, want);
    if (want) unpack(b.data.data() + off, want, at(recv, displs[k], rtype), at(rcounts[k]), rtype, 0);
    off += b.sizes[k];
  }
}

}  // namespace

void barrier(Context& cx, Comm& ic, const char* call) {
  route::barrier(cx.member, ic.bridge(), call);
}

void bcast(Context& cx, Comm& ic, const char* call, void* buf, std::size_t count,
           const TypeRef& type, int root) {
  if (root == PURE_PROC_NULL) return;
  if (root == PURE_ROOT) {
    Exchange x(cx, ic.bridge(), call);
    x.send(remote_leader(ic), buf, count, type, kBcast);
    x.wait();
    return;
  }
  Comm& g = ic.group_comm();
  at_leader(cx, g, call, [&] {
    Exchange x(cx, ic.bridge(), call);
    x.recv(ic.remote_group().world_of(root), buf, count, type, kBcast);
    x.wait();
  });
  route::bcast(cx.member, g, call, buf, count, *type.type, 0);
}

void reduce(Context& cx, Comm& ic, const coll::ReduceArgs& a, int root) {
  if (root == PURE_PROC_NULL) return;
  const TypeRef type = ref(a.type);
  if (root == PURE_ROOT) {
    Exchange x(cx, ic.bridge(), a.call);
    x.recv(remote_leader(ic), a.recv, a.count, type, kReduce);
    x.wait();
    return;
  }
  // The group's inputs folded at its leader, then to the root (root >= 0)
  // or swapped with the other leader and spread over the group (-1).
  Comm& g = ic.group_comm();
  const bool leader = g.rank() == 0;
  Scratch folded(leader ? a.count : 0, *a.type);
  coll::ReduceArgs mine = a;
  mine.recv = folded.get();
  route::reduce(cx.member, g, mine, 0);
  if (root >= 0) {
    if (!leader) return;
    Exchange x(cx, ic.bridge(), a.call);
    x.send(ic.remote_group().world_of(root), folded.get(), a.count, type, kReduce);
    x.wait();
    return;
  }
  at_leader(cx, g, a.call, [&] {
    Exchange x(cx, ic.bridge(), a.call);
    x.send(remote_leader(ic), folded.get(), a.count, type, kAllreduce);
    x.recv(remote_leader(ic), a.recv, a.count, type, kAllreduce);
    x.wait();
  });
  route::bcast(cx.member, g, a.call, a.recv, a.count, *a.type, 0);
}

void reduce_scatter(Context& cx, Comm& ic, const coll::ReduceArgs& a, const int* recvcounts) {
  Comm& g = ic.group_comm();
  const bool leader = g.rank() == 0;
  const TypeRef type = ref(a.type);
  Scratch folded(leader ? a.count : 0, *a.type), theirs(leader ? a.count : 0, *a.type);
  coll::ReduceArgs mine = a;
  mine.recv = folded.get();
  route::reduce(cx.member, g, mine, 0);
  at_leader(cx, g, a.call, [&] {
    Exchange x(cx, ic.bridge(), a.call);
    x.send(remote_leader(ic), folded.get(), a.count, type, kReduceScatter);
    x.recv(remote_leader(ic), theirs.get(), a.count, type, kReduceScatter);
    x.wait();
  });
  std::vector<int> displs(at(g.size()));
  for (int k = 1; k < g.size(); ++k) displs[at(k)] = displs[at(k - 1)] + recvcounts[k - 1];
  route::scatterv(cx.member, g, a.call, static_cast<const void*>(theirs.get()), recvcounts,
                  static_cast<const int*>(displs.data()), a.type, a.recv,
                  static_cast<std::size_t>(recvcounts[g.rank()]), a.type, 0);
}

void gatherv(Context& cx, Comm& ic, const char* call, const void* send, std::size_t scount,
             const TypeRef& stype, void* recv, const int* rcounts, const int* displs,
             const TypeRef& rtype, int root) {
  if (root == PURE_PROC_NULL) return;
  if (root == PURE_ROOT) {
    Blocks b = recv_blocks(cx, ic.bridge(), call, remote_leader(ic), ic.remote_group().size(),
                           kGather);
    unpack_blocks(b, recv, rcounts, displs, *rtype.type, ic.rank(), call);
    return;
  }
  Comm& g = ic.group_comm();
  Blocks b = gather_group(cx, g, call, send, scount, *stype.type);
  if (g.rank() != 0) return;
  Exchange x(cx, ic.bridge(), call);
  send_blocks(x, ic.remote_group().world_of(root), b, kGather);
  x.wait();
}

void scatterv(Context& cx, Comm& ic, const char* call, const void* send, const int* scounts,
              const int* displs, const TypeRef& stype, void* recv, std::size_t rcount,
              const TypeRef& rtype, int root) {
  if (root == PURE_PROC_NULL) return;
  if (root == PURE_ROOT) {
    const int n = ic.remote_group().size();
    Blocks b;
    b.sizes.resize(at(n));
    std::size_t total = 0;
    for (int k = 0; k < n; ++k) total += b.sizes[at(k)] = at(scounts[k]) * stype.type->size();
    b.data.resize(total);
    std::size_t off = 0;
    for (int k = 0; k < n; ++k) {
      if (b.sizes[at(k)])
        pack(at(send, displs[k], *stype.type), at(scounts[k]), *stype.type, 0,
             b.data.data() + off, b.sizes[at(k)]);
      off += b.sizes[at(k)];
    }
    Exchange x(cx, ic.bridge(), call);
    send_blocks(x, remote_leader(ic), b, kScatter);
    x.wait();
    return;
  }
  Comm& g = ic.group_comm();
  Blocks b;
  std::vector<int> counts, offsets;
  if (g.rank() == 0) {
    b = recv_blocks(cx, ic.bridge(), call, ic.remote_group().world_of(root), g.size(), kScatter);
    std::size_t total = 0;
    for (std::uint64_t s : b.sizes) {
      counts.push_back(int_count(s, call));
      offsets.push_back(int_count(total, call));
      total += s;
    }
  }
  route::scatterv(cx.member, g, call, static_cast<const void*>(b.data.data()),
                  static_cast<const int*>(counts.data()), static_cast<const int*>(offsets.data()),
                  &bytes(), recv, rcount, rtype.type, 0);
}

void allgatherv(Context& cx, Comm& ic, const char* call, const void* send, std::size_t scount,
                const TypeRef& stype, void* recv, const int* rcounts, const int* displs,
                const TypeRef& rtype) {
  Comm& g = ic.group_comm();
  Blocks mine = gather_group(cx, g, call, send, scount, *stype.type);
  Blocks theirs;
  theirs.sizes.resize(at(ic.remote_group().size()));
  at_leader(cx, g, call, [&] {
    // Both leaders send before either waits for its sends: a send larger
    // than the eager limit completes only once the other leader posted its
    // receive, which it does only after it learnt the sizes.
    Exchange out(cx, ic.bridge(), call);
    send_blocks(out, remote_leader(ic), mine, kAllgather);
    theirs = recv_blocks(cx, ic.bridge(), call, remote_leader(ic), ic.remote_group().size(),
                         kAllgather);
    out.wait();
  });
  route::bcast(cx.member, g, call, theirs.sizes.data(), theirs.sizes.size() * 8, bytes(), 0);
  std::size_t total = 0;
  for (std::uint64_t s : theirs.sizes) total += s;
  theirs.data.resize(total);
  route::bcast(cx.member, g, call, theirs.data.data(), total, bytes(), 0);
  unpack_blocks(theirs, recv, rcounts, displs, *rtype.type, ic.rank(), call);
}

void alltoallv(Context& cx, Comm& ic, const char* call, const void* send, const int* scounts,
               const int* sdispls, const TypeRef& stype, void* recv, const int* rcounts,
               const int* rdispls, const TypeRef& rtype) {
  const Group& remote = ic.remote_group();
  Exchange x(cx, ic.bridge(), call);
  for (int k = 0; k < remote.size(); ++k)
    x.recv(remote.world_of(k), at(recv, rdispls[k], *rtype.type), at(rcounts[k]), rtype,
           kAlltoall);
  for (int k = 0; k < remote.size(); ++k)
    x.send(remote.world_of(k), at(send, sdispls[k], *stype.type), at(scounts[k]), stype,
           kAlltoall);
  x.wait();
}

}  // namespace pure::inter
