// The mechanics shared by every flat-API function: find the calling rank,
// check it is between init and finalize, validate arguments with messages
// that name the bad value, and turn a pure::Error into the communicator's
// error-handler behaviour (fatal: print "rank R: call: message" and end the
// job; return: hand the error class back).
#pragma once

#include <cstdio>
#include <string>

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
TypeRef type_arg(Call& c, PURE_Datatype handle);
const Datatype& any_type_arg(Call& c, PURE_Datatype handle);  // committed or not
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

}  // namespace pure::api
