// What the typed C++ API (include/pure/communicator.hpp) needs of the runtime
// besides the flat calls: its errors as exceptions, a fatal report from a
// destructor, and reduction operators that carry state (pure/error.hpp).
#include <string>
#include <utility>

#include "api/call.h"
#include "pure/error.hpp"

namespace pure {

error::error(int error_class, std::string call, int rank, const std::string& what)
    : std::runtime_error(what), class_(error_class), call_(std::move(call)), rank_(rank) {}

error::~error() = default;

namespace detail {

__thread int typed_calls = 0;

}  // namespace detail

namespace {
// The last error a typed-API call of this rank returned (api::handle_error
// keeps it); thread-local as typed_calls is.
struct TypedError {
  int code = PURE_SUCCESS;
  int rank = -1;
  std::string call;
  std::string what;
};
thread_local TypedError t_last_error;
}  // namespace

namespace api {

void keep_typed_error(const Rank& rank, const char* call, int code, const std::string& message) {
  t_last_error.code = code;
  t_last_error.rank = rank.world();
  t_last_error.call = call;
  t_last_error.what = in_program_names(report(rank, call, with_class(code, message)));
}

}  // namespace api

namespace detail {

void throw_error(int code) {
  if (t_last_error.code != code) {
    // A code the call returned without passing through the error handler
    // (a call made outside a rank returns one): say what is known.
    Rank* rank = Rank::current();
    throw error(code, "", rank ? rank->world() : -1,
                api::with_class(code, "a call of the typed API failed"));
  }
  t_last_error.code = PURE_SUCCESS;
  throw error(code, std::move(t_last_error.call), t_last_error.rank, t_last_error.what);
}

void throw_error(int code, const char* call, const std::string& message) {
  Rank* rank = Rank::current();
  if (!rank) throw error(code, call, -1, std::string("pure: ") + call + ": " + message);
  throw error(code, call, rank->world(),
              in_program_names(api::report(*rank, call, api::with_class(code, message))));
}

void fatal(int code, const char* call, const std::string& message) {
  Rank* rank = Rank::current();
  if (!rank) return;
  Process& process = rank->process();
  if (process.aborted()) return;
  // No unwinding here: the caller is a destructor. The rank's next wait
  // finds the abort and unwinds from there.
  process.abort(code, api::report(*rank, call, api::with_class(code, message)));
}

int op_create(StatefulOp fn, void* state, bool commute, PURE_Op* op) {
  return api::call("pure_op_create", [&](api::Call& c) {
    if (!fn) fail(PURE_ERR_ARG, "null user function");
    if (!op) fail(PURE_ERR_ARG, "null op pointer");
    UserOp u;
    u.fn_state = fn;
    u.state = state;
    u.commute = commute;
    *op = c.rank.handles().ops.add(u);
  });
}

}  // namespace detail
}  // namespace pure
