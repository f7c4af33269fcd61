// pure::error, what the typed C++ API (pure/communicator.hpp) throws, and
// the few entry points of the runtime that the typed API's headers call
// besides the flat API. C++17, so that the runtime itself includes it.
#pragma once

#include <stdexcept>
#include <string>

#include "pure/pure.h"

namespace pure {

// A failed call of the typed API: the MPI error class (PURE_ERR_*), the
// flat-API call that failed, and the calling rank in PURE_COMM_WORLD. what()
// is the runtime's whole message, "pure: rank R: call: message [CLASS]", the
// one the default error handler would have printed before ending the job.
class error : public std::runtime_error {
 public:
  error(int error_class, std::string call, int rank, const std::string& what);
  ~error() override;  // out of line: the typeinfo lives in libpure, one for every catch
  error(const error&) = default;
  error& operator=(const error&) = default;

  int error_class() const noexcept { return class_; }
  const std::string& call() const noexcept { return call_; }
  int rank() const noexcept { return rank_; }

 private:
  int class_;
  std::string call_;
  int rank_;
};

namespace detail {

// While positive on a rank, a failing flat-API call keeps its message and
// returns its error class whatever the communicator's error handler is; the
// typed API then throws it as a pure::error (throw_error). Per rank: every
// rank is a thread of its own, and its fiber carries its thread-locals.
// __thread rather than thread_local: no initialisation wrapper on every read.
extern __thread int typed_calls;

// Counts a typed-API call in typed_calls for its length.
struct typed_scope {
  typed_scope() noexcept { ++typed_calls; }
  ~typed_scope() { --typed_calls; }
  typed_scope(const typed_scope&) = delete;
  typed_scope& operator=(const typed_scope&) = delete;
};

// Throws the error the calling rank's last flat call (made with typed_calls
// set) returned as `code`.
[[noreturn]] void throw_error(int code);
// Throws a pure::error for a misuse the typed API itself found in `call`.
[[noreturn]] void throw_error(int code, const char* call, const std::string& message);
// Ends the job for a misuse that cannot be thrown (found in a destructor):
// "pure: rank R: call: message [CLASS]", exit status `code`, as the default
// error handler ends it. Returns (doing nothing) when the job is already
// ending, so that a destructor run while the rank unwinds for it stays quiet.
void fatal(int code, const char* call, const std::string& message);

// Runs `flat_call` (a flat-API call, returning its error class) as a
// typed-API call: a failure is thrown as a pure::error.
template <class F>
inline void check(F&& flat_call) {
  int rc;
  {
    typed_scope scope;
    rc = flat_call();
  }
  if (__builtin_expect(rc != PURE_SUCCESS, 0)) throw_error(rc);
}

// A reduction operator with state, for the typed API's function objects:
// inout[i] = fn(in[i], inout[i]) over `count` elements of the op's datatype,
// `state` being what op_create was given. The ranks that combine each use
// their own op (and state), as MPI ranks each pass their own op.
using StatefulOp = void (*)(const void* in, void* inout, PURE_Count count, void* state);
int op_create(StatefulOp fn, void* state, bool commute, PURE_Op* op);

}  // namespace detail
}  // namespace pure
