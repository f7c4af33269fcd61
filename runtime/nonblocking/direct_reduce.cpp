// Nonblocking reductions whose members all live in this process, run in
// memory instead of as messages: the members meet (collectives/meetings.h),
// publish where their input and output are, and each folds one slice of
// every input straight into the outputs, as the blocking partitioned
// reducer does (collectives/reduce.cpp, fold_slice). Three rounds of the
// schedule:
//   0. join the meeting, publish the input and output views, the call, the
//      byte count and the root (or recvcounts); the round ends when every
//      member has;
//   1. check that every member's call, count and root (or recvcounts)
//      agree, fold our slice; the round ends when every member has folded,
//      after which nobody reads our input or writes our output any more;
//   2. unpack our output if it was packed; leave the meeting.
// So a member completes only once every member has started the collective
// and advanced it, a reduce's non-roots too (MPI allows that: a
// collective's completion may depend on every member's).
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
#include <new>
#include <string>
#include <vector>

#include "base/error.h"
#include "collectives/collectives.h"
#include "nonblocking/collectives.h"

namespace pure::nbc {

namespace {

// What the members share: written by member k before its arrival (views,
// the words the others check), read by all after the last.
struct Meeting {
  explicit Meeting(int n)
      : in(static_cast<std::size_t>(n)),
        out(static_cast<std::size_t>(n)),
        call(static_cast<std::size_t>(n)),
        check(static_cast<std::size_t>(n)),
        shape(static_cast<std::size_t>(n)) {}
  std::vector<const void*> in;
  std::vector<void*> out;  // nullptr: no output (a reduce's non-roots)
  std::vector<const char*> call;
  std::vector<std::int64_t> check;  // the byte count, tagged with the call
  std::vector<std::int64_t> shape;  // the root, or a hash of recvcounts
  // A member could not take part (out of memory staging its data or
  // folding): the others must not use its views or trust the outputs.
  // Relaxed: stored before that member's next increment below.
  std::atomic<bool> broken{false};
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

// What a member's call is, for the others to compare: `what` names its
// count in messages; `shape` is what else must agree (the root, the
// recvcounts), named by `shape_what`, with error class `shape_code`.
struct Form {
  const char* what;
  std::int64_t shape;
  const char* shape_what;
  int shape_code;
};

// The first way member k's call differs from member 0's, as an error
// (class in *code), or "" when every member's agrees. Once the calls, counts
// and shapes agree, every output a member's slice goes to exists.
std::string disagreement(const Meeting& g, int n, const Form& form, int* code) {
  for (int k = 1; k < n; ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (g.check[i] >> coll::kCallTagShift != g.check[0] >> coll::kCallTagShift) {
      *code = PURE_ERR_OTHER;
      return std::string("rank ") + std::to_string(k) + " calls " + g.call[i] +
             " where rank 0 calls " + g.call[0] + " (every rank must call the same collective)";
    }
    if (g.check[i] != g.check[0]) {
      *code = PURE_ERR_COUNT;
      return coll::count_mismatch(form.what, k, g.check[i], 0, g.check[0]);
    }
    if (g.shape[i] != g.shape[0]) {
      *code = form.shape_code;
      return std::string(form.shape_what) + " mismatch: rank " + std::to_string(k) +
             (form.shape_code == PURE_ERR_ROOT
                  ? " passes root " + std::to_string(g.shape[i]) + " but rank 0 passes root " +
                        std::to_string(g.shape[0])
                  : std::string(" passes other recvcounts than rank 0")) +
             " (every rank must pass the same)";
    }
  }
  return std::string();
}

// The schedule's rounds. `data` reduces the whole input; `mine` describes
// our output (data itself, or our block of a reduce_scatter; nullptr: none);
// `private_output`: our output is a buffer of our own that only we write,
// delivered at the end; `slicing(meeting, targets)` returns our slice of the
// items and fills `targets`, where it goes (each pointing at where the
// slice's first item belongs).
//
// Every member reaches every increment, whatever fails on the way (a
// disagreement, memory), so that none waits for ever for another.
template <class Slicing>
void build(Schedule& s, Comm& comm, const ReduceSpec& a, const Reduction& data,
           const Reduction* mine, bool private_output, const Form& form, Slicing&& slicing) {
  Side& side = s.keep(std::make_unique<Side>());
  side.part = comm.collective_ref();
  side.box = &coll::dropbox(comm);
  side.key = s.first();
  side.me = comm.rank();
  side.n = comm.size();
  Side* m = &side;
  Schedule* sched = &s;
  const Reduction* red = &data;
  const void* in = a.send ? a.send : a.recv;
  void* recv = a.recv;

  s.round();
  s.local([m, sched, red, mine, in, recv, private_output, form] {
    m->meeting = m->box->meetings().join<Meeting>({m->key, ++m->starts}, m->n);
    Meeting& g = *m->meeting;
    const std::size_t k = static_cast<std::size_t>(m->me);
    try {
      g.in[k] = red->input_view(in, m->input);
      m->out = !mine            ? nullptr
               : private_output ? mine->buffer(m->output, mine->items())
                                : mine->output_view(recv, m->output);
    } catch (const std::bad_alloc&) {
      g.in[k] = nullptr;
      m->out = nullptr;
      g.broken.store(true, std::memory_order_relaxed);
      sched->error(PURE_ERR_NO_MEM, "out of memory staging this rank's data");
    }
    g.out[k] = m->out;
    g.call[k] = sched->call();
    g.check[k] = coll::tagged_check(sched->call(), red->bytes());
    g.shape[k] = form.shape;
    if (g.arrived.fetch_add(1, std::memory_order_acq_rel) == m->n - 1) m->box->wake_others(m->me);
  });
  s.wait([m] { return m->meeting->arrived.load(std::memory_order_acquire) == m->n; });

  s.round();
  s.local([m, red, sched, form, slicing] {
    Meeting& g = *m->meeting;
    int code = PURE_SUCCESS;
    const std::string why = disagreement(g, m->n, form, &code);
    if (!why.empty()) {
      sched->error(code, why);
    } else if (g.broken.load(std::memory_order_relaxed)) {
      sched->error(PURE_ERR_NO_MEM, "another rank ran out of memory staging its data");
    } else {
      try {
        std::vector<void*> targets;
        const coll::Slice slice = slicing(g, targets);
        coll::fold_slice(*red, g.in.data(), m->n, targets.data(), static_cast<int>(targets.size()),
                         slice, m->acc);
      } catch (const std::bad_alloc&) {
        g.broken.store(true, std::memory_order_relaxed);
        sched->error(PURE_ERR_NO_MEM, "out of memory folding this rank's slice");
      }
    }
    if (g.folded.fetch_add(1, std::memory_order_acq_rel) == m->n - 1) m->box->wake_others(m->me);
  });
  s.wait([m] { return m->meeting->folded.load(std::memory_order_acquire) == m->n; });

  s.round();
  s.local([m, mine, recv, private_output, sched] {
    if (m->meeting->broken.load(std::memory_order_relaxed))
      sched->error(PURE_ERR_NO_MEM, "a rank ran out of memory folding its slice");
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

bool meets_in_memory(const Comm& comm, const OpRef& op, std::size_t bytes) {
  return op.predefined != 0 && bytes >= kInMemoryBytes && !comm.inter() &&
         !comm.spans_processes() && comm.size() > 1;
}

void direct_reduce(Schedule& s, Comm& comm, const ReduceSpec& a, int root) {
  const Reduction& data =
      s.keep(std::make_unique<Reduction>(a.op, *a.type.type, a.handle, a.count));
  s.keep(std::make_unique<TypeRef>(a.type));
  const bool has_output = root < 0 || comm.rank() == root;
  const int n = comm.size(), me = comm.rank();
  const Reduction* red = &data;
  const Form form{"count", root, "root", PURE_ERR_ROOT};
  build(s, comm, a, data, has_output ? &data : nullptr, false, form,
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
  // The shape word: a hash of the recvcounts (FNV-1a).
  std::uint64_t h = 14695981039346656037ull;
  for (int c : recvcounts) h = (h ^ static_cast<std::uint32_t>(c)) * 1099511628211ull;
  const Form form{"total count", static_cast<std::int64_t>(h >> 1), "recvcounts", PURE_ERR_COUNT};
  build(s, comm, a, data, &block, true, form, [me, slice](Meeting& g, std::vector<void*>& targets) {
    targets.push_back(g.out[static_cast<std::size_t>(me)]);
    return slice;
  });
}

}  // namespace pure::nbc
