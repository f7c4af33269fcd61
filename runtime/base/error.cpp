#include "base/error.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>

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

namespace {
std::atomic<bool> g_mpi_names{false};

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The flat-API names that have an MPI name, sorted (generated from
// include/pure/mpi.h by runtime/CMakeLists.txt). The others -- settings
// such as PURE_DEADLOCK_TIMEOUT, Pure's own calls such as pure_sym_malloc
// -- keep their names in a translated program's messages too.
const char* const kMapped[] = {
#include <mapped_names.inc>  // generated in the build tree, not a runtime file
};

bool has_mpi_name(const std::string& name) {
  return std::binary_search(std::begin(kMapped), std::end(kMapped), name.c_str(),
                            [](const char* a, const char* b) { return std::strcmp(a, b) < 0; });
}
}  // namespace

void report_in_mpi_names() { g_mpi_names.store(true, std::memory_order_relaxed); }

std::string in_program_names(std::string text) {
  if (!g_mpi_names.load(std::memory_order_relaxed)) return text;
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const bool starts_word = i == 0 || !identifier_char(text[i - 1]);
    if (!starts_word || !identifier_char(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && identifier_char(text[end])) ++end;
    const std::string word = text.substr(i, end - i);
    i = end;
    if (!has_mpi_name(word)) {
      out += word;
      continue;
    }
    // pure_comm_rank -> MPI_Comm_rank (the first letter after the prefix
    // up), PURE_COMM_WORLD -> MPI_COMM_WORLD.
    out += "MPI_";
    out += word.compare(0, 5, "pure_") == 0
               ? static_cast<char>(std::toupper(static_cast<unsigned char>(word[5])))
               : word[5];
    out.append(word, 6, std::string::npos);
  }
  return out;
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
    case PURE_ERR_ASSERT: return "PURE_ERR_ASSERT: invalid assertion argument";
    case PURE_ERR_BASE: return "PURE_ERR_BASE: invalid base address";
    case PURE_ERR_DISP: return "PURE_ERR_DISP: invalid displacement unit";
    case PURE_ERR_LOCKTYPE: return "PURE_ERR_LOCKTYPE: invalid lock type";
    case PURE_ERR_NO_MEM: return "PURE_ERR_NO_MEM: out of memory";
    case PURE_ERR_RMA_CONFLICT: return "PURE_ERR_RMA_CONFLICT: conflicting accesses to a window";
    case PURE_ERR_RMA_SYNC: return "PURE_ERR_RMA_SYNC: wrong synchronization of RMA calls";
    case PURE_ERR_SIZE: return "PURE_ERR_SIZE: invalid size argument";
    case PURE_ERR_WIN: return "PURE_ERR_WIN: invalid window";
    case PURE_ERR_RMA_RANGE: return "PURE_ERR_RMA_RANGE: target memory outside the window";
    case PURE_ERR_RMA_ATTACH: return "PURE_ERR_RMA_ATTACH: memory cannot be attached or detached";
    case PURE_ERR_RMA_FLAVOR: return "PURE_ERR_RMA_FLAVOR: wrong window flavor for this call";
    case PURE_ERR_RMA_SHARED: return "PURE_ERR_RMA_SHARED: memory cannot be shared";
    case PURE_ERR_UNSUPPORTED_OPERATION:
      return "PURE_ERR_UNSUPPORTED_OPERATION: operation not supported";
    case PURE_ERR_INFO_KEY: return "PURE_ERR_INFO_KEY: invalid info key";
    case PURE_ERR_INFO_NOKEY: return "PURE_ERR_INFO_NOKEY: no such info key";
    case PURE_ERR_INFO_VALUE: return "PURE_ERR_INFO_VALUE: invalid info value";
    case PURE_ERR_INFO: return "PURE_ERR_INFO: invalid info object";
    case PURE_ERR_KEYVAL: return "PURE_ERR_KEYVAL: invalid attribute keyval";
    default: return nullptr;
  }
}

}  // namespace pure
