// Schedule: a nonblocking (or persistent) collective as rounds of
// point-to-point messages, libNBC-style.
//
// Why point-to-point rounds: they work wherever point-to-point works --
// inside a process through the eager queues and single-copy rendezvous,
// across processes through MPI -- with no second engine, any number of
// collectives in flight on one communicator, completed in any order, and
// progressed by whatever progresses messages: the rank's wait loop (its
// WaitWork::progress runs the Endpoint's, which advances every running
// schedule), any test or wait, any blocking call. A waiting rank thus
// still steals task chunks. docs/perf-notes.md ("Nonblocking collectives")
// has what this costs against the blocking collectives.
//
// Messages travel on the communicator's hidden twin (Comm::schedule_comm):
// its context never matches the user's traffic, and across processes a tag
// bit marks them (net/remote_channel.cpp). Every schedule of a
// communicator gets the tag of its initiation count (Comm::next_schedule),
// which the members agree on because they start collectives in the same
// order; so collectives in flight together never take each other's
// messages. Inside one schedule, messages between two members are matched
// in the order both sides post them, which the algorithms keep symmetric.
//
// A round: its local steps run in order (folding what the previous round
// received, copying), then its sends and receives are posted; the round
// ends when all of them have completed. A failed receive (a message longer
// than its buffer: the members' counts disagree) does not stop the schedule,
// whose peers still wait for its messages: the error is reported when the
// schedule completes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "channels/endpoint.h"
#include "channels/request.h"
#include "comm/comm.h"

namespace pure::nbc {

class Schedule final : public Operation {
 public:
  // A schedule on `comm` for flat-API function `call`: takes the next
  // `tags` initiation counts of `comm` (every member takes as many); `tag_ub`
  // is the largest tag messages may carry (tag k of the schedule is its
  // k-th count modulo tag_ub + 1).
  Schedule(Endpoint& p2p, Comm& comm, int tag_ub, const char* call, int tags = 1);
  ~Schedule() override;
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  int rank() const { return rank_; }
  // The first initiation count the schedule took: the same on every member.
  std::uint64_t first() const { return first_; }
  // Whether an error was recorded (error() below) in this activation.
  bool failed() const { return error_ != PURE_SUCCESS; }
  int size() const { return size_; }
  const char* call() const { return call_; }

  // ---- building (before the first start) ----
  // Begins the next round.
  void round();
  // Steps of the current round. `peer` is a rank of the communicator (this
  // member too, as a neighbour of itself); the buffers must stay valid until
  // the schedule is done.
  // `tag` (below the `tags` of the constructor) tells apart the messages of
  // one pair of members that must not match in posting order.
  void send(int peer, const void* buf, std::size_t count, const TypeRef& type, int tag = 0);
  void recv(int peer, void* buf, std::size_t count, const TypeRef& type, int tag = 0);
  void local(std::function<void()> step);
  // The round also waits until done() holds (asked each time the schedule
  // is advanced; for work outside point-to-point, such as MPI's).
  void wait(std::function<bool()> done);
  // Scratch storage owned by the schedule, 64-byte aligned, zeroed.
  unsigned char* scratch(std::size_t bytes);
  // Keeps `object` alive as long as the schedule; returns it.
  template <class T>
  T& keep(std::unique_ptr<T> object) {
    T& ref = *object;
    kept_.push_back(std::shared_ptr<void>(std::move(object)));
    return ref;
  }
  // Records an error the schedule reports when it completes (the first one
  // wins); for local steps that find the members' arguments disagree.
  void error(int code, std::string message);

  // ---- Operation ----
  bool advance(Request& r) override;
  void start(Request& r) override;  // persistent: from the first round again
  std::string error_text() const override { return why_; }

 private:
  struct Step {
    enum Kind { send, recv, local, wait } kind;
    int peer;  // world rank
    int tag;   // the message tag of a send or receive
    void* buf;
    std::size_t count;
    TypeRef type;
    std::function<void()> fn;
    std::function<bool()> done;
  };
  struct FreeAligned {
    void operator()(unsigned char* p) const { std::free(p); }
  };

  bool round_done();
  void run_round(std::size_t k);
  void finish(Request& r);

  Endpoint& p2p_;
  int tag(int k) const;

  std::shared_ptr<Comm> comm_;  // the hidden twin
  const std::uint64_t first_;   // the first initiation count taken
  const int tags_;
  const std::uint64_t tag_modulus_;  // tag_ub + 1
  const int rank_;
  const int size_;
  const char* const call_;
  std::vector<Step> steps_;
  std::vector<std::size_t> rounds_;  // index of each round's first step
  std::size_t next_ = 0;             // the round to run next
  std::vector<Request*> inflight_;   // the current round's transfers; nullptr once done
  std::vector<const std::function<bool()>*> waits_;  // the current round's waits not yet done
  std::vector<std::unique_ptr<unsigned char, FreeAligned>> scratch_;
  std::vector<std::shared_ptr<void>> kept_;
  int error_ = PURE_SUCCESS;
  std::string why_;
};

// The type of data that travels as plain bytes (packed or staged copies).
const TypeRef& bytes_type();

// Starts `schedule` as the operation of a new request of `p2p` for a
// collective on `comm`, advancing it once; returns the request.
Request* start(Endpoint& p2p, Comm& comm, std::unique_ptr<Schedule> schedule);
// The same as an inactive persistent request (MPI_Start runs it).
Request* persistent(Endpoint& p2p, Comm& comm, std::unique_ptr<Schedule> schedule);

}  // namespace pure::nbc
