// Tracing (PURE_TRACE): a timeline of what every thread of the job did, for
// Perfetto (job/observers.cpp writes it as Chrome trace-event JSON).
//
// Every rank thread and helper thread records into a Buffer of its own: a
// ring of fixed-size Events allocated once at start, written by its owner
// thread only, with no lock and no allocation; when the ring is full the
// oldest events are overwritten and counted as dropped. The buffers are read
// when the job ends, after their threads stopped (an abort across processes
// reads them earlier, best effort: see Process::abort).
//
// With tracing off a thread's Buffer pointer is null and every hook is one
// load and a branch.
#pragma once

#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <memory>

namespace pure::trace {

// Timestamps: ticks of the CPU's time-stamp counter where the kernel itself
// keeps time with it (clocksource tsc: constant rate, synchronised across
// cores), since a read costs well under half of clock_gettime's; else
// nanoseconds of CLOCK_MONOTONIC. Calibration converts stamps to
// CLOCK_MONOTONIC nanoseconds, the clock every process of a node shares.
extern const bool kStampsAreTicks;
std::uint64_t monotonic_ns();
inline std::uint64_t now() {
#if defined(__x86_64__)
  if (kStampsAreTicks) return __rdtsc();
#endif
  return monotonic_ns();
}

// The rate of the stamps measured from program start to its construction
// (made when a trace or statistics are written, so that the span is long).
class Calibration {
 public:
  Calibration();
  std::uint64_t to_ns(std::uint64_t stamp) const;
  std::uint64_t span_ns(std::uint64_t stamps) const;  // a difference of stamps

 private:
  double ns_per_stamp_ = 1.0;
};

// How a wait waited: the last stage of the wait loop it reached.
enum class How : std::uint8_t { none, spin, yield, park, fiber };
const char* how_name(How how);
// Whether `call` (a flat-API name) is one that programs call in a loop until
// it succeeds: pure_test*, pure_iprobe, pure_improbe, pure_request_get_status.
bool polls(const char* call);

struct Event {
  enum class Kind : std::uint8_t {
    slice,     // [begin, end] on the thread's track
    chunk,     // a slice running chunks `tag`..`context` of a task
    flow_out,  // a message leaves: a flow arrow starts here (id)
    flow_in,   // a message arrives: the arrow with the same id ends here
    stolen,    // a stolen run of chunks `tag`..`context` [begin, end]; `peer` is
               // the owner's local index, `id` its task's number, `bytes` when
               // the task began (where the arrow from the owner starts)
    counter,   // `name` = `id` at `begin`
  };
  std::uint64_t begin;
  std::uint64_t end;
  const char* name;     // static storage: a call name, "wait", "task", ...
  std::uint64_t id;     // flow id, task id, a counter's value, or a call
                        // slice's repeats (polling calls merged, end_call)
  std::int64_t bytes;   // -1: none
  std::int32_t peer;    // world rank, -1: none
  std::int32_t tag;     // -1: none
  std::int32_t context;  // communicator context, -1: none
  Kind kind;
  How how;
};

// The id of a message's flow arrow, the same on both sides without the
// message carrying it: messages of one envelope (sender, receiver,
// communicator, tag) are received in the order they were sent (MPI's
// non-overtaking rule), so the k-th message of an envelope that a sender
// sends is the k-th of that envelope its receiver receives. Each side counts
// its messages per envelope (FlowCounts) and both hash the same five numbers.
std::uint64_t flow_id(int sender, int receiver, int context, int tag, std::uint64_t k);

// Messages per envelope seen from one thread: a table of fixed size
// allocated once (no allocation per message). Returns 0 (no arrow) once the
// table is full of other envelopes.
class FlowCounts {
 public:
  FlowCounts();
  // The number of the next message to or from `peer` with `context` and
  // `tag` (1, 2, ...), or 0.
  std::uint64_t next(int peer, int context, int tag);

 private:
  static constexpr std::size_t kEntries = 1 << 12;
  struct Entry {
    std::uint64_t key = 0;  // 0: free
    std::uint64_t count = 0;
  };
  std::unique_ptr<Entry[]> entries_;
  std::size_t used_ = 0;
};

class Buffer {
 public:
  // Keeps the last `capacity` events (at least one).
  explicit Buffer(std::size_t capacity)
      : capacity_(capacity ? capacity : 1), ring_(new Event[capacity_]) {}
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Owner thread only.
  static constexpr std::uint64_t kRepeatGapNs = 20000;  // polls closer than this merge

  void push(const Event& e) {
    ring_[written_ % capacity_] = e;
    ++written_;
  }
  void slice(const char* name, std::uint64_t begin, std::uint64_t end) {
    push(Event{begin, end, name, 0, -1, -1, -1, -1, Event::Kind::slice, How::none});
  }

  // The arguments of the call slice open on this thread (api/call.h): the
  // layers below fill in what they learn (peer, tag, bytes, communicator,
  // how the call waited), and the slice takes them when it closes.
  struct CallArgs {
    std::int64_t bytes = -1;
    std::int32_t peer = -1;
    std::int32_t tag = -1;
    std::int32_t context = -1;
    How how = How::none;
  };
  CallArgs& call_args() { return call_args_; }
  // A call begins: its arguments start empty. Returns the enclosing call's
  // (a call made inside another, e.g. from a task chunk), to restore.
  CallArgs begin_call() {
    const CallArgs outer = call_args_;
    call_args_ = CallArgs{};
    return outer;
  }
  // A polling call (polls()) that repeats the one just recorded (nothing
  // recorded between, the same arguments, soon after: a loop of pure_iprobe
  // or pure_test) extends its slice and counts a repeat, so that polling
  // does not push everything else out of the ring.
  void end_call(const char* name, std::uint64_t begin, const CallArgs& outer) {
    const CallArgs& a = call_args_;
    const std::uint64_t end = now();
    if (written_ > 0) {
      Event& last = ring_[(written_ - 1) % capacity_];
      if (last.kind == Event::Kind::slice && last.name == name && last.peer == a.peer &&
          last.tag == a.tag && last.context == a.context && last.bytes == a.bytes &&
          last.how == a.how && begin >= last.end && begin - last.end < kRepeatGapNs &&
          polls(name)) {
        last.end = end;
        ++last.id;
        call_args_ = outer;
        return;
      }
    }
    push(Event{begin, end, name, 0, a.bytes, a.peer, a.tag, a.context, Event::Kind::slice, a.how});
    call_args_ = outer;
  }
  // A wait of the current call reached `how`.
  void waited(How how) {
    if (how > call_args_.how) call_args_.how = how;
  }

  // The open call's message: what a receive was posted for (-1: a
  // wildcard), until the message it takes says more.
  void note_message(int peer, int context, int tag, std::int64_t bytes) {
    call_args_.peer = peer;
    call_args_.context = context;
    call_args_.tag = tag;
    call_args_.bytes = bytes;
  }

  // A message leaves for (arrives from) world rank `peer`: the tail (head)
  // of its flow arrow, at `at`. The arguments also go to the open call.
  void message_out(int me, int peer, int context, int tag, std::int64_t bytes, std::uint64_t at) {
    note_message(peer, context, tag, bytes);
    const std::uint64_t k = sent_.next(peer, context, tag);
    if (k) push(Event{at, at, "message", flow_id(me, peer, context, tag, k), bytes, peer, tag,
                      context, Event::Kind::flow_out, How::none});
  }
  void message_in(int me, int peer, int context, int tag, std::int64_t bytes, std::uint64_t at) {
    note_message(peer, context, tag, bytes);
    const std::uint64_t k = received_.next(peer, context, tag);
    if (k) push(Event{at, at, "message", flow_id(peer, me, context, tag, k), bytes, peer, tag,
                      context, Event::Kind::flow_in, How::none});
  }

  // For the writer, once the owner thread stopped: the events in the order
  // they were written, oldest kept first.
  std::uint64_t written() const { return written_; }
  std::uint64_t dropped() const { return written_ > capacity_ ? written_ - capacity_ : 0; }
  template <class F>
  void for_each(F&& f) const {
    for (std::uint64_t i = dropped(); i < written_; ++i) f(ring_[i % capacity_]);
  }

 private:
  const std::size_t capacity_;
  std::unique_ptr<Event[]> ring_;
  std::uint64_t written_ = 0;
  CallArgs call_args_;
  FlowCounts sent_;
  FlowCounts received_;

};

// A slice from construction to destruction on `buffer` (nothing when null).
class Slice {
 public:
  Slice(Buffer* buffer, const char* name)
      : buffer_(buffer), name_(name), begin_(buffer ? now() : 0) {}
  ~Slice() {
    if (buffer_) buffer_->slice(name_, begin_, now());
  }
  Slice(const Slice&) = delete;
  Slice& operator=(const Slice&) = delete;

 private:
  Buffer* const buffer_;
  const char* const name_;
  const std::uint64_t begin_;
};

}  // namespace pure::trace
