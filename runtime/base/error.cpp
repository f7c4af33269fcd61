#include "base/error.h"

#include <cstdarg>
#include <cstdio>

#include "pure/pure.h"

namespace pure {

void fail(int code, const char* format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  throw Error(code, text);
}

const char* error_class_string(int code) {
  switch (code) {
    case PURE_SUCCESS: return "PURE_SUCCESS: no error";
    case PURE_ERR_BUFFER: return "PURE_ERR_BUFFER: invalid buffer pointer";
    case PURE_ERR_COUNT: return "PURE_ERR_COUNT: invalid count argument";
    case PURE_ERR_TYPE: return "PURE_ERR_TYPE: invalid datatype";
    case PURE_ERR_TAG: return "PURE_ERR_TAG: invalid tag";
    case PURE_ERR_COMM: return "PURE_ERR_COMM: invalid communicator";
    case PURE_ERR_RANK: return "PURE_ERR_RANK: invalid rank";
    case PURE_ERR_REQUEST: return "PURE_ERR_REQUEST: invalid request";
    case PURE_ERR_ROOT: return "PURE_ERR_ROOT: invalid root";
    case PURE_ERR_GROUP: return "PURE_ERR_GROUP: invalid group";
    case PURE_ERR_OP: return "PURE_ERR_OP: invalid reduce operation";
    case PURE_ERR_TOPOLOGY: return "PURE_ERR_TOPOLOGY: invalid topology";
    case PURE_ERR_DIMS: return "PURE_ERR_DIMS: invalid dimension argument";
    case PURE_ERR_ARG: return "PURE_ERR_ARG: invalid argument";
    case PURE_ERR_UNKNOWN: return "PURE_ERR_UNKNOWN: unknown error";
    case PURE_ERR_TRUNCATE: return "PURE_ERR_TRUNCATE: message truncated";
    case PURE_ERR_OTHER: return "PURE_ERR_OTHER: known error not in this list";
    case PURE_ERR_INTERN: return "PURE_ERR_INTERN: internal error";
    case PURE_ERR_IN_STATUS: return "PURE_ERR_IN_STATUS: error code is in status";
    case PURE_ERR_PENDING: return "PURE_ERR_PENDING: pending request";
    case PURE_ERR_NOT_INITIALIZED: return "PURE_ERR_NOT_INITIALIZED: called before pure_init";
    case PURE_ERR_FINALIZED: return "PURE_ERR_FINALIZED: called after pure_finalize";
    default: return nullptr;
  }
}

}  // namespace pure
