// The schedules of the nonblocking (and persistent) collectives: each
// function appends this member's rounds for one collective to a Schedule
// (schedule.h). Arguments are validated by the flat API; what shows only
// when the members' arguments meet (counts that disagree) is reported by
// the schedule when it completes.
//
// Algorithms (every one works for any number of members):
//   barrier      dissemination: ceil(log2 n) rounds of one message each way
//   bcast        binomial tree from the root
//   reduce       binomial tree towards rank 0, in rank order (so
//                non-commutative ops get MPI's order), then to the root
//   allreduce    recursive doubling (ranks beyond the largest power of two
//                fold into a partner first), in rank order; large data with
//                a commutative op: ring reduce-scatter then ring allgather,
//                where each member folds 1/n of the data
//   reduce_scatter  ring reduce-scatter (commutative ops), else reduce to
//                rank 0 and scatter
//   scan, exscan recursive doubling
// Except: reduce, allreduce and reduce_scatter of at least kInMemoryBytes
// with a predefined op on a communicator whose members all live in this
// process meet in memory (direct_reduce.cpp): every member folds a slice of
// all inputs straight into the outputs, with no message.
//   gather(v), scatter(v), allgather(v), alltoall(v,w): one round in which
//                every block goes straight to where it belongs
//   neighbour collectives: one round, a message per edge of the topology
//
// On intercommunicators (inter_*), data moves between the groups: every
// collective is one round of messages straight between the members
// concerned (bcast: root to every member of the other group; allgather and
// alltoall: every member to every member of the other group), and a
// reduction sends each input whole to every member that needs the result,
// which folds them in the other group's rank order. The schedule runs on
// the intercommunicator's bridge (Sides).
//   comm_idup:   see idup.h
#pragma once

#include <cstddef>
#include <vector>

#include "channels/request.h"
#include "comm/process_topology.h"
#include "nonblocking/schedule.h"
#include "types/ops.h"

namespace pure::nbc {

// One member's block of a data-moving collective: `count` items of `type`
// at `buf`.
struct Block {
  void* buf = nullptr;
  std::size_t count = 0;
  TypeRef type;
};

void barrier(Schedule& s);
void bcast(Schedule& s, void* buf, std::size_t count, const TypeRef& type, int root);

// `mine`: this member's contribution (buf nullptr: in place, it is already
// in its own slot of `all`); `all`: the slots of every member (at the root
// only for gather).
void gather(Schedule& s, int root, const Block& mine, const std::vector<Block>& all);
// `all` at the root; `mine` (buf nullptr at the root: in place, its block
// stays where it is).
void scatter(Schedule& s, int root, const std::vector<Block>& all, const Block& mine);
void allgather(Schedule& s, const Block& mine, const std::vector<Block>& all);
// `sends[k]` goes to member k, `recvs[k]` comes from it. `in_place`: the
// data to send is in `recvs` (MPI_IN_PLACE): staged aside first.
void alltoall(Schedule& s, const std::vector<Block>& sends, const std::vector<Block>& recvs,
              bool in_place);

// A neighbourhood collective of the member with topology `t`: out[j] goes
// to its out-neighbour j, in[i] comes from its in-neighbour i
// (ProcessTopology::neighbourhood); PURE_PROC_NULL neighbours take no part.
// The schedule must have been built with t.tags() tags.
void neighbours(Schedule& s, const ProcessTopology& t, const std::vector<Block>& out,
                const std::vector<Block>& in);

// Where the two groups of an intercommunicator sit in its bridge, the
// intracommunicator of both groups (the first group, then the second) on
// which its schedules run.
struct Sides {
  int me;  // this member's rank in its group
  int local_size, remote_size;
  bool local_first;
  int local(int k) const { return local_first ? k : remote_size + k; }
  int remote(int j) const { return local_first ? local_size + j : j; }
};

// `root` of the rooted ones: PURE_ROOT at the root, PURE_PROC_NULL at the
// other members of its group (they take no part), the root's rank in the
// other group at the members of that group. `all` and `sends`/`recvs`
// have a block per member of the other group.
void inter_barrier(Schedule& s, const Sides& g);
void inter_bcast(Schedule& s, const Sides& g, void* buf, std::size_t count, const TypeRef& type,
                 int root);
void inter_gather(Schedule& s, const Sides& g, int root, const Block& mine,
                  const std::vector<Block>& all);
void inter_scatter(Schedule& s, const Sides& g, int root, const std::vector<Block>& all,
                   const Block& mine);
void inter_allgather(Schedule& s, const Sides& g, const Block& mine, const std::vector<Block>& all);
void inter_alltoall(Schedule& s, const Sides& g, const std::vector<Block>& sends,
                    const std::vector<Block>& recvs);

struct ReduceSpec {
  const void* send;  // nullptr: in place, the input is in recv
  void* recv;
  std::size_t count;
  TypeRef type;
  PURE_Datatype handle;
  OpRef op;
};

// root < 0: allreduce. `comm` is the communicator the collective was
// called on: when meets_in_memory, these run in memory (direct_reduce.cpp),
// else as messages (reductions.cpp).
void reduce(Schedule& s, Comm& comm, const ReduceSpec& a, int root);
// a.count is the total, the sum of recvcounts.
void reduce_scatter(Schedule& s, Comm& comm, const ReduceSpec& a,
                    const std::vector<int>& recvcounts);
// Whether a reduction of `bytes` (in all: reduce_scatter's total) with `op`
// on `comm` runs in memory: a predefined op, at least kInMemoryBytes, and
// every member in this process. The same answer on every member whose
// arguments agree with the others'. Members whose counts straddle the
// threshold take different paths and never meet: the job ends with the
// deadlock report instead of the count mismatch.
bool meets_in_memory(const Comm& comm, const OpRef& op, std::size_t bytes);
// Below this, the two meetings of the in-memory reduction cost more than
// the messages of the point-to-point schedule (tools/bench.sh overlap
// sizes, docs/perf-notes.md "Nonblocking collectives": 2 ranks, a core
// each; not measured with ranks sharing cores).
constexpr std::size_t kInMemoryBytes = 16 << 10;
void direct_reduce(Schedule& s, Comm& comm, const ReduceSpec& a, int root);
void direct_reduce_scatter(Schedule& s, Comm& comm, const ReduceSpec& a,
                           const std::vector<int>& recvcounts);
void scan(Schedule& s, const ReduceSpec& a, bool exclusive);
// The reduction of the other group's inputs: at the root (root as above),
// or at every member (root kEveryMember: allreduce).
constexpr int kEveryMember = -1;
void inter_reduce(Schedule& s, const Sides& g, const ReduceSpec& a, int root);
// Member k of this group gets recvcounts[k] elements of the reduction of
// the other group's inputs (a.count, the sum of recvcounts, elements each).
void inter_reduce_scatter(Schedule& s, const Sides& g, const ReduceSpec& a,
                          const std::vector<int>& recvcounts);

// Allreduces of at least this many bytes with a commutative op take the
// ring (reduce-scatter, allgather); smaller ones recursive doubling. A
// choice, not a measurement (docs/perf-notes.md, "Nonblocking collectives").
constexpr std::size_t kRingAllreduceBytes = 64 * 1024;

}  // namespace pure::nbc
