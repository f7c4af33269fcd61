// Nonblocking reductions whose members all live in this process, run in
// memory instead of as messages: the members meet (collectives/meetings.h),
// publish where their input and output are, and each folds one slice of
// every input straight into the outputs, as the blocking partitioned
// reducer does (collectives/reduce.cpp, fold_slice). Three rounds of the
// schedule:
//   0. join the meeting, publish the input and output views and the byte
//      count; the round ends when every member has;
//   1. check that the counts agree, fold our slice; the round ends when
//      every member has folded, after which nobody reads our input or writes
//      our output any more;
//   2. unpack our output if it was packed; leave the meeting.
// Each input item is read once and each output item written once, where the
// message schedules (reductions.cpp) copy inputs into views, send them, fold
// the copies and copy the results out.
//
// Order: fold_slice folds in rank order, so the result is the same on
// every member and on every path of the blocking reductions.
//
// Waking: a member whose arrival or fold completes the count wakes the
// others, who may be parked in a wait loop whose progress advances this
// schedule.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "collectives/collectives.h"
#include "nonblocking/collectives.h"

namespace pure::nbc {

namespace {

// What the members share: written by member k before its arrival (input,
// output, check word), read by all after the last.
struct Meeting {
  explicit Meeting(int n)
      : in(static_cast<std::size_t>(n)),
        out(static_cast<std::size_t>(n)),
        bytes(static_cast<std::size_t>(n)) {}
  std::vector<const void*> in;
  std::vector<void*> out;  // nullptr: no output (a reduce's non-roots)
  std::vector<long long> bytes;
  // acq_rel increments: each member's stores above (and, for `folded`, its
  // writes into the outputs) happen before the acquire load that sees the
  // count complete.
  std::atomic<int> arrived{0};
  std::atomic<int> folded{0};
};

// One member's side of the collective, kept by its schedule.
struct Side {
  std::shared_ptr<Comm::Part> part;  // keeps the Dropbox alive past a comm free
  coll::Dropbox* box = nullptr;
  std::uint64_t key = 0;     // the schedule's initiation count
  std::uint64_t starts = 0;  // activations so far (persistent requests restart)
  int me = 0;
  int n = 0;
  std::shared_ptr<Meeting> meeting;
  std::vector<unsigned char> input, output, acc;
  void* out = nullptr;  // our output view
};

// The schedule's rounds. `data` reduces the whole input; `mine` describes
// our output (data itself, or our block of a reduce_scatter; nullptr: none);
// `private_output`: our output is a buffer of our own that only we write,
// delivered at the end; `slicing(meeting, targets)` returns our slice of the
// items and fills `targets`, where it goes (each pointing at where the
// slice's first item belongs).
template <class Slicing>
void build(Schedule& s, Comm& comm, const ReduceSpec& a, const Reduction& data,
           const Reduction* mine, bool private_output, Slicing&& slicing) {
  Side& side = s.keep(std::make_unique<Side>());
  side.part = comm.collective_ref();
  side.box = &coll::dropbox(comm);
  side.key = s.first();
  side.me = comm.rank();
  side.n = comm.size();
  Side* m = &side;
  const Reduction* red = &data;
  const void* in = a.send ? a.send : a.recv;
  void* recv = a.recv;

  s.round();
  s.local([m, red, mine, in, recv, private_output] {
    m->meeting = m->box->meetings().join<Meeting>({m->key, ++m->starts}, m->n);
    Meeting& g = *m->meeting;
    const std::size_t k = static_cast<std::size_t>(m->me);
    g.in[k] = red->input_view(in, m->input);
    m->out = !mine            ? nullptr
             : private_output ? mine->buffer(m->output, mine->items())
                              : mine->output_view(recv, m->output);
    g.out[k] = m->out;
    g.bytes[k] = static_cast<long long>(red->bytes());
    if (g.arrived.fetch_add(1, std::memory_order_acq_rel) == m->n - 1) m->box->wake_others(m->me);
  });
  s.wait([m] { return m->meeting->arrived.load(std::memory_order_acquire) == m->n; });

  s.round();
  Schedule* sched = &s;
  s.local([m, red, sched, slicing] {
    Meeting& g = *m->meeting;
    bool agree = true;
    for (int k = 1; k < m->n && agree; ++k) {
      if (g.bytes[static_cast<std::size_t>(k)] != g.bytes[0]) {
        sched->error(
            PURE_ERR_COUNT,
            coll::count_mismatch("count", k, g.bytes[static_cast<std::size_t>(k)], 0, g.bytes[0]));
        agree = false;
      }
    }
    if (agree) {
      std::vector<void*> targets;
      const coll::Slice slice = slicing(g, targets);
      coll::fold_slice(*red, g.in.data(), m->n, targets.data(), static_cast<int>(targets.size()),
                       slice, m->acc);
    }
    if (g.folded.fetch_add(1, std::memory_order_acq_rel) == m->n - 1) m->box->wake_others(m->me);
  });
  s.wait([m] { return m->meeting->folded.load(std::memory_order_acquire) == m->n; });

  s.round();
  s.local([m, mine, recv, private_output, sched] {
    const bool failed = sched->failed();
    m->meeting.reset();
    if (!mine || failed) return;
    if (private_output)
      mine->deliver(m->out, recv);
    else
      mine->store_output(m->out, recv);
  });
}

}  // namespace

bool meets_in_memory(const Comm& comm, const OpRef& op) {
  return op.predefined != 0 && !comm.inter() && !comm.spans_processes() && comm.size() > 1;
}

void direct_reduce(Schedule& s, Comm& comm, const ReduceSpec& a, int root) {
  const Reduction& data =
      s.keep(std::make_unique<Reduction>(a.op, *a.type.type, a.handle, a.count));
  s.keep(std::make_unique<TypeRef>(a.type));
  const bool has_output = root < 0 || comm.rank() == root;
  const int n = comm.size(), me = comm.rank();
  const Reduction* red = &data;
  build(s, comm, a, data, has_output ? &data : nullptr, false,
        [red, n, me, root](Meeting& g, std::vector<void*>& targets) {
          const coll::Slice slice = coll::partition_slice(*red, n, me);
          for (int k = 0; k < n; ++k)
            if (root < 0 || k == root)
              targets.push_back(red->at(g.out[static_cast<std::size_t>(k)], slice.begin));
          return slice;
        });
}

void direct_reduce_scatter(Schedule& s, Comm& comm, const ReduceSpec& a,
                           const std::vector<int>& recvcounts) {
  const Reduction& data =
      s.keep(std::make_unique<Reduction>(a.op, *a.type.type, a.handle, a.count));
  s.keep(std::make_unique<TypeRef>(a.type));
  const int me = comm.rank();
  const Reduction& block = s.keep(std::make_unique<Reduction>(
      a.op, *a.type.type, a.handle,
      static_cast<std::size_t>(recvcounts[static_cast<std::size_t>(me)])));
  std::size_t first = 0;
  for (int k = 0; k < me; ++k)
    first += static_cast<std::size_t>(recvcounts[static_cast<std::size_t>(k)]);
  const std::size_t per = a.count ? data.items() / a.count : 0;  // items per element
  const coll::Slice slice{
      first * per,
      (first + static_cast<std::size_t>(recvcounts[static_cast<std::size_t>(me)])) * per};
  // In place, our block of the output overlaps the input another member
  // folds from: the block is folded into our own buffer and delivered
  // after every member has folded.
  build(s, comm, a, data, &block, true, [me, slice](Meeting& g, std::vector<void*>& targets) {
    targets.push_back(g.out[static_cast<std::size_t>(me)]);
    return slice;
  });
}

}  // namespace pure::nbc
