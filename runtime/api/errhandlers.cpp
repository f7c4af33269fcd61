// Flat API: error handlers (predefined and the program's, set on
// communicators and windows), error strings and classes, and the error classes, codes
// and strings the program adds. A user handler is called by
// api/call.cpp's handle_error when a call fails under it.
#include <cstdio>
#include <cstring>
#include <string>

#include "api/call.h"
#include "api/comms.h"
#include "api/windows.h"

using namespace pure;
using namespace pure::api;

namespace {

// An error handler the program may use: predefined, or created and not
// yet freed by every handle the program was given.
const Errhandler& errhandler_arg(Call& c, PURE_Errhandler handle) {
  if (handle == PURE_ERRHANDLER_NULL)
    fail(PURE_ERR_ARG, "PURE_ERRHANDLER_NULL is not a valid error handler");
  auto& table = c.rank.handles().errhandlers;
  const Errhandler* e = table.find(handle);
  if (!e) handle_error(PURE_ERR_ARG, "error handler", table.state(handle), handle);
  if (!table.predefined(handle) && e->handles == 0)
    fail(PURE_ERR_ARG,
         "error handler handle 0x%x was freed (a communicator still uses it, but the handle "
         "names nothing the program may use)",
         static_cast<unsigned>(handle));
  return *e;
}

// An error handler to set on a communicator (`window` false) or a window:
// predefined, or made for that kind of object.
void errhandler_for(Call& c, PURE_Errhandler handle, bool window) {
  const Errhandler& e = errhandler_arg(c, handle);
  if (c.rank.handles().errhandlers.predefined(handle) || e.window == window) return;
  fail(PURE_ERR_ARG,
       "error handler 0x%x was made by %s; a %s needs one made by %s",
       static_cast<unsigned>(handle),
       e.window ? "pure_win_create_errhandler" : "pure_comm_create_errhandler",
       window ? "window" : "communicator",
       window ? "pure_win_create_errhandler" : "pure_comm_create_errhandler");
}

PURE_Errhandler create_errhandler(Call& c, PURE_Comm_errhandler_function* fn, bool window) {
  Errhandler e;
  e.fn = fn;
  e.window = window;
  e.handles = 1;
  return c.rank.handles().errhandlers.add(e);
}

// A new handle to `h` the program frees: one more reference to a user handler.
PURE_Errhandler handed_out(Call& c, PURE_Errhandler h) {
  auto& table = c.rank.handles().errhandlers;
  if (!table.predefined(h)) ++table.find(h)->handles;
  return h;
}

// pure_{comm,win}_call_errhandler: `h`, the handler of `what` (handle
// `handle`), runs as if a call on it had failed with `errorcode`. Returns
// the code under PURE_ERRORS_RETURN, and success once a user handler has
// returned (MPI: the handler was called).
int raise_on(Call& c, PURE_Errhandler h, int handle, const std::string& what, int errorcode) {
  if (h == PURE_ERRORS_RETURN) return errorcode;
  if (h == PURE_ERRORS_ARE_FATAL || h == PURE_ERRORS_ABORT)
    fatal(c.rank, c.name, errorcode,
          "error code " + std::to_string(errorcode) + " raised on " + what +
              ", whose error handler is " +
              (h == PURE_ERRORS_ABORT ? "PURE_ERRORS_ABORT" : "PURE_ERRORS_ARE_FATAL"));
  int object = handle;
  int code = errorcode;
  c.rank.handles().errhandlers.find(h)->fn(&object, &code);
  return PURE_SUCCESS;
}

// A code or class the calling rank added, or nullptr. Error strings and
// classes may be asked for outside rank threads too (before init).
const ErrorCodes::Code* added_code(int code) {
  Rank* rank = Rank::current();
  if (!rank) return nullptr;
  const auto& added = rank->handles().error_codes.added;
  auto it = added.find(code);
  return it == added.end() ? nullptr : &it->second;
}

int create_errhandler(const char* name, PURE_Comm_errhandler_function* comm_errhandler_fn,
                      PURE_Errhandler* errhandler) {
  return call(name, [&](Call& c) {
    if (!comm_errhandler_fn) fail(PURE_ERR_ARG, "null error handler function");
    if (!errhandler) fail(PURE_ERR_ARG, "null errhandler pointer");
    *errhandler = create_errhandler(c, comm_errhandler_fn, false);
  });
}

int set_errhandler(const char* name, PURE_Comm comm, PURE_Errhandler errhandler) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    errhandler_for(c, errhandler, false);
    use_errhandler(c.rank, errhandler);
    drop_errhandler(c.rank, cm.errhandler());
    cm.set_errhandler(errhandler);
  });
}

int get_errhandler(const char* name, PURE_Comm comm, PURE_Errhandler* errhandler) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!errhandler) fail(PURE_ERR_ARG, "null errhandler pointer");
    *errhandler = handed_out(c, cm.errhandler());
  });
}
}  // namespace

extern "C" {

int pure_comm_create_errhandler(PURE_Comm_errhandler_function* comm_errhandler_fn,
                                PURE_Errhandler* errhandler) {
  return create_errhandler("pure_comm_create_errhandler", comm_errhandler_fn, errhandler);
}
int pure_comm_set_errhandler(PURE_Comm comm, PURE_Errhandler errhandler) {
  return set_errhandler("pure_comm_set_errhandler", comm, errhandler);
}
int pure_comm_get_errhandler(PURE_Comm comm, PURE_Errhandler* errhandler) {
  return get_errhandler("pure_comm_get_errhandler", comm, errhandler);
}
// MPI-1's names, removed in MPI-3, which old codes still call.
int pure_errhandler_create(PURE_Handler_function* function, PURE_Errhandler* errhandler) {
  return create_errhandler("pure_errhandler_create", function, errhandler);
}
int pure_errhandler_set(PURE_Comm comm, PURE_Errhandler errhandler) {
  return set_errhandler("pure_errhandler_set", comm, errhandler);
}
int pure_errhandler_get(PURE_Comm comm, PURE_Errhandler* errhandler) {
  return get_errhandler("pure_errhandler_get", comm, errhandler);
}

int pure_errhandler_free(PURE_Errhandler* errhandler) {
  return call("pure_errhandler_free", [&](Call& c) {
    if (!errhandler) fail(PURE_ERR_ARG, "null errhandler pointer");
    errhandler_arg(c, *errhandler);
    auto& table = c.rank.handles().errhandlers;
    if (!table.predefined(*errhandler)) {
      Errhandler& e = *table.find(*errhandler);
      if (--e.handles == 0 && e.uses == 0) table.remove(*errhandler);
    }
    *errhandler = PURE_ERRHANDLER_NULL;
  });
}

int pure_comm_call_errhandler(PURE_Comm comm, int errorcode) {
  int result = PURE_SUCCESS;
  const int rc = call("pure_comm_call_errhandler", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    result = raise_on(c, cm.errhandler(), comm, cm.name(), errorcode);
  });
  return rc != PURE_SUCCESS ? rc : result;
}

// ---- windows' error handlers ----

int pure_win_create_errhandler(PURE_Win_errhandler_function* win_errhandler_fn,
                               PURE_Errhandler* errhandler) {
  return call("pure_win_create_errhandler", [&](Call& c) {
    if (!win_errhandler_fn) fail(PURE_ERR_ARG, "null error handler function");
    if (!errhandler) fail(PURE_ERR_ARG, "null errhandler pointer");
    *errhandler = create_errhandler(c, win_errhandler_fn, true);
  });
}

int pure_win_set_errhandler(PURE_Win win, PURE_Errhandler errhandler) {
  return call("pure_win_set_errhandler", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    errhandler_for(c, errhandler, true);
    use_errhandler(c.rank, errhandler);
    drop_errhandler(c.rank, w.errhandler());
    w.set_errhandler(errhandler);
  });
}

int pure_win_get_errhandler(PURE_Win win, PURE_Errhandler* errhandler) {
  return call("pure_win_get_errhandler", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!errhandler) fail(PURE_ERR_ARG, "null errhandler pointer");
    *errhandler = handed_out(c, w.errhandler());
  });
}

int pure_win_call_errhandler(PURE_Win win, int errorcode) {
  int result = PURE_SUCCESS;
  const int rc = call("pure_win_call_errhandler", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    result = raise_on(c, w.errhandler(), win, w.describe(), errorcode);
  });
  return rc != PURE_SUCCESS ? rc : result;
}

// ---- error classes, codes and strings ----

int pure_error_string(int errorcode, char* string, int* resultlen) {
  if (!string || !resultlen) return PURE_ERR_ARG;
  const char* text = error_class_string(errorcode);
  const ErrorCodes::Code* user = added_code(errorcode);
  if (user) {
    std::snprintf(string, PURE_MAX_ERROR_STRING, "%s", user->text.c_str());
  } else if (text) {
    std::snprintf(string, PURE_MAX_ERROR_STRING, "%s", in_program_names(text).c_str());
  } else {
    std::snprintf(string, PURE_MAX_ERROR_STRING, "unknown error code %d", errorcode);
  }
  *resultlen = static_cast<int>(std::strlen(string));
  return text || user ? PURE_SUCCESS : PURE_ERR_ARG;
}

int pure_error_class(int errorcode, int* errorclass) {
  if (!errorclass) return PURE_ERR_ARG;
  if (error_class_string(errorcode)) {
    *errorclass = errorcode;
    return PURE_SUCCESS;
  }
  const ErrorCodes::Code* user = added_code(errorcode);
  if (!user) return PURE_ERR_ARG;
  *errorclass = user->error_class;
  return PURE_SUCCESS;
}

int pure_add_error_class(int* errorclass) {
  return call("pure_add_error_class", [&](Call& c) {
    if (!errorclass) fail(PURE_ERR_ARG, "null errorclass pointer");
    ErrorCodes& codes = c.rank.handles().error_codes;
    const int value = ++codes.last;
    codes.added[value] = ErrorCodes::Code{value, std::string()};
    *errorclass = value;
  });
}

int pure_add_error_code(int errorclass, int* errorcode) {
  return call("pure_add_error_code", [&](Call& c) {
    if (!errorcode) fail(PURE_ERR_ARG, "null errorcode pointer");
    ErrorCodes& codes = c.rank.handles().error_codes;
    auto it = codes.added.find(errorclass);
    const bool added_class = it != codes.added.end() && it->second.error_class == errorclass;
    if (!added_class && !error_class_string(errorclass))
      fail(PURE_ERR_ARG, "%d is not an error class", errorclass);
    const int value = ++codes.last;
    codes.added[value] = ErrorCodes::Code{errorclass, std::string()};
    *errorcode = value;
  });
}

int pure_add_error_string(int errorcode, const char* string) {
  return call("pure_add_error_string", [&](Call& c) {
    if (!string) fail(PURE_ERR_ARG, "null string");
    if (std::strlen(string) >= PURE_MAX_ERROR_STRING)
      fail(PURE_ERR_ARG, "the string is longer than PURE_MAX_ERROR_STRING - 1 (%d)",
           PURE_MAX_ERROR_STRING - 1);
    ErrorCodes& codes = c.rank.handles().error_codes;
    auto it = codes.added.find(errorcode);
    if (it == codes.added.end())
      fail(PURE_ERR_ARG, "%d is not an error class or code added by the program%s", errorcode,
           error_class_string(errorcode) ? " (the predefined ones keep their strings)" : "");
    it->second.text = string;
  });
}

}  // extern "C"
