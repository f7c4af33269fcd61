// The mechanics shared by every flat-API function: find the calling rank,
// check it is between init and finalize, validate arguments with messages
// that name the bad value, and turn a pure::Error into the communicator's
// error-handler behaviour (fatal: print "rank R: call: message" and end the
// job; return: hand the error class back).
#pragma once

#include <cstdint>
#include <exception>
#include <cstdio>
#include <string>
#include <vector>

#include "base/handle.h"
#include "comm/comm.h"
#include "base/error.h"
#include "base/stats.h"
#include "base/trace.h"
#include "job/process.h"
#include "job/rank.h"
#include "pure/error.hpp"

namespace pure::api {

struct Call {
  Rank& rank;
  const char* name;
  const Comm* errors = nullptr;  // whose error handler applies; world when unset
  const onesided::Window* window = nullptr;  // when set, its error handler applies
};

// "pure: rank R: call: message", as every report of a call's error starts.
std::string report(const Rank& rank, const char* call, const std::string& message);
// `message` with the name of error class `code` appended: "message [PURE_ERR_RANK]".
std::string with_class(int code, const std::string& message);
// Ends the job for an error of class `code` in `call`: "pure: rank R:
// call: message [ERROR_CLASS]", the job's exit status `code`.
[[noreturn]] void fatal(Rank& rank, const char* call, int code, const std::string& message);
// Ends the job with exit status `status`, which the program chose
// (pure_abort's error code, exit's status): the same report without an
// error class, which the status is not.
[[noreturn]] void end_job(Rank& rank, const char* call, int status, const std::string& message);
int handle_error(Call& c, const Error& e);
// Keeps a typed-API call's error for detail::throw_error (pure/error.hpp).
void keep_typed_error(const Rank& rank, const char* call, int code, const std::string& message);
int outside_rank(const char* call);
// Throws the error for a handle that names no object of its kind: `state`
// says whether it names one that was freed.
[[noreturn]] void handle_error(int code, const char* kind, HandleState state, int handle);

// The trace slice of one flat-API call (PURE_TRACE), with the arguments the
// layers below note on the way (base/trace.h, Buffer::CallArgs). It opens and
// closes around the call's body, also when the body throws (the job is
// aborting, or the error is fatal: the call still shows, ending where the
// abort ended it, which is what a deadlock's trace is read for). The body
// thus has one call site, and the compiler inlines it into the API
// function; with tracing off the slice is a test of a null pointer.
class CallSlice {
 public:
  CallSlice(trace::Buffer* traced, const char* name) : traced_(traced), name_(name) {
    if (__builtin_expect(traced_ != nullptr, 0)) open();
  }
  ~CallSlice() {
    if (__builtin_expect(traced_ != nullptr, 0)) close();
  }
  CallSlice(const CallSlice&) = delete;
  CallSlice& operator=(const CallSlice&) = delete;

 private:
  [[gnu::cold, gnu::noinline]] void open();
  [[gnu::cold, gnu::noinline]] void close();
  trace::Buffer* const traced_;
  const char* const name_;
  std::uint64_t begin_ = 0;
  trace::Buffer::CallArgs outer_;
};

// Runs `body(Call&)` for flat-API function `name`. `need_init` is false only
// for the few calls MPI allows before init or after finalize.
template <class F>
int call(const char* name, F&& body, bool need_init = true) {
  Rank* rank = Rank::current();
  if (!rank) return outside_rank(name);
  if (need_init && rank->state() != Rank::State::running) {
    fatal(*rank, name,
          rank->state() == Rank::State::created ? PURE_ERR_NOT_INITIALIZED : PURE_ERR_FINALIZED,
          rank->state() == Rank::State::created ? "called before pure_init"
                                                : "called after pure_finalize");
  }
  // A call from a destructor run while the rank unwinds for an abort (an
  // RAII window freed on the way out): nothing is done and nothing thrown.
  // A destructor is noexcept, and a second JobAborted from its wait would
  // end the process through std::terminate, with the wrong status.
  // The abort is tested first: one load, where std::uncaught_exceptions is a
  // call into the C++ runtime that every API call would otherwise pay.
  if (__builtin_expect(rank->process().aborted(), 0) && std::uncaught_exceptions() > 0)
    return PURE_ERR_OTHER;
  Call c{*rank, name};
  CallSlice slice(rank->waiter().trace(), name);
  try {
    body(c);
    return PURE_SUCCESS;
  } catch (const Error& e) {
    return handle_error(c, e);
  }
}

// A collective call: as call(), and counted for PURE_STATS.
template <class F>
int collective(const char* name, F&& body) {
  return call(name, [&](Call& c) {
    if (RankStats* s = c.rank.waiter().stats()) ++s->collectives;
    body(c);
  });
}

// ---- what PURE_TRACE and PURE_STATS see of messages ----
inline bool observed(Rank& rank) { return rank.waiter().trace() || rank.waiter().stats(); }
// A message of `bytes` to world rank `peer` on `comm` leaves.
void observe_send(Rank& rank, int peer, const Comm& comm, int tag, std::size_t bytes);
// A receive on `comm` completed with `status` (cancelled ones are not messages).
void observe_recv(Rank& rank, const Comm& comm, const PURE_Status& status);
// The same for a message from world rank `peer` on context `context` (a
// matched probe's message, whose receive is given no communicator).
void observe_recv(Rank& rank, int peer, int context, const PURE_Status& status);

// ---- argument checks: each throws Error naming the bad value ----
Comm& comm_arg(Call& c, PURE_Comm handle);
// An intracommunicator (PURE_ERR_COMM for an intercommunicator).
Comm& intra_arg(Call& c, PURE_Comm handle);
// The group behind a handle.
const GroupRef& group_arg(Call& c, PURE_Group handle);
// The info object behind a handle; with `null_ok`, nullptr for PURE_INFO_NULL.
const Info* info_arg(Call& c, PURE_Info handle, bool null_ok);
TypeRef type_arg(Call& c, PURE_Datatype handle);
const Datatype& any_type_arg(Call& c, PURE_Datatype handle);  // committed or not
OpRef op_arg(Call& c, PURE_Op op);
// Counts are 64-bit here so that the int calls and their large-count (_c)
// twins share every check.
void count_arg(long long count);
// A null buffer is PURE_BOTTOM: fine when the type's data lies at absolute
// addresses (displacements from pure_get_address), an error otherwise.
void buffer_arg(const void* buf, long long count, const Datatype& type);
bool at_absolute_addresses(const Datatype& type);
// Rank index of a destination; -2 (PURE_PROC_NULL) passes through.
int dest_arg(const Comm& comm, int dest);
// Rank index of a source; also accepts PURE_ANY_SOURCE (-1) and PURE_PROC_NULL.
int source_arg(const Comm& comm, int source);
void send_tag_arg(Call& c, int tag);
void recv_tag_arg(Call& c, int tag);

// A new group handle for `members` (PURE_GROUP_EMPTY when there are none).
PURE_Group add_group(Rank& rank, std::vector<int> members);
PURE_Group add_group(Rank& rank, const GroupRef& group);

}  // namespace pure::api
