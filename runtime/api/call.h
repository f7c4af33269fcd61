// The mechanics shared by every flat-API function: find the calling rank,
// check it is between init and finalize, validate arguments with messages
// that name the bad value, and turn a pure::Error into the communicator's
// error-handler behaviour (fatal: print "rank R: call: message" and end the
// job; return: hand the error class back).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "base/handle.h"
#include "comm/comm.h"
#include "base/error.h"
#include "job/process.h"
#include "job/rank.h"

namespace pure::api {

struct Call {
  Rank& rank;
  const char* name;
  const Comm* errors = nullptr;  // whose error handler applies; world when unset
  const onesided::Window* window = nullptr;  // when set, its error handler applies
};

[[noreturn]] void fatal(Rank& rank, const char* call, int code, const std::string& message);
int handle_error(Call& c, const Error& e);
int outside_rank(const char* call);
// Throws the error for a handle that names no object of its kind: `state`
// says whether it names one that was freed.
[[noreturn]] void handle_error(int code, const char* kind, HandleState state, int handle);

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
  Call c{*rank, name};
  try {
    body(c);
    return PURE_SUCCESS;
  } catch (const Error& e) {
    return handle_error(c, e);
  }
}

// ---- argument checks: each throws Error naming the bad value ----
Comm& comm_arg(Call& c, PURE_Comm handle);
// The members of a group handle, in group-rank order (world ranks).
const std::vector<int>& group_arg(Call& c, PURE_Group handle);
TypeRef type_arg(Call& c, PURE_Datatype handle);
const Datatype& any_type_arg(Call& c, PURE_Datatype handle);  // committed or not
void count_arg(int count);
void buffer_arg(const void* buf, int count, const Datatype& type);
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
