// Errors inside the runtime are exceptions carrying an MPI error class and a
// message that names the bad value; the flat C layer (runtime/api) turns them
// into the communicator's error-handler behaviour and prefixes rank and call.
#pragma once

#include <stdexcept>
#include <string>

namespace pure {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// Thrown out of every wait loop once the job is aborting, so that each rank
// unwinds to its thread's top frame. Deliberately not an Error: user code
// that catches Error (or the C layer) must not swallow it.
struct JobAborted {};

// printf-style construction of an Error; never returns.
[[noreturn]] void fail(int code, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Text of an error class, e.g. "PURE_ERR_RANK: invalid rank".
const char* error_class_string(int code);

// A program written with MPI's names (pure/mpi_names.h) has the runtime's
// messages in them: set once, before the job starts.
void report_in_mpi_names();
// `text` in the names the program wrote: unchanged, or with every pure_xxx_yyy
// as MPI_Xxx_yyy and every PURE_FOO as MPI_FOO (pure.h's naming rule backwards).
std::string in_program_names(std::string text);

}  // namespace pure
