// What the translator knows by name: the MPI names Pure supports and their
// counterparts, and the C library functions whose process-wide meaning
// changes when ranks are threads.
#pragma once

#include <optional>
#include <string>

#include "llvm/ADT/StringRef.h"

namespace mpi2pure {

// True for the names MPI reserves for itself (MPI_..., PMPI_...).
bool is_mpi_name(llvm::StringRef name);

// Pure's counterpart of a supported MPI name (MPI_Comm_rank -> pure_comm_rank,
// MPI_INT -> PURE_INT, MPI_Comm -> PURE_Comm; a profiling name PMPI_Send
// -> pure_send, the same function); nothing when Pure lacks it.
std::optional<llvm::StringRef> pure_name(llvm::StringRef mpi_name);

// Why Pure does not support an MPI name, from unsupported_names.txt;
// nothing when the list does not name it.
std::optional<llvm::StringRef> unsupported_reason(llvm::StringRef mpi_name);

// The pure/compat.h stand-in for a C library function (exit -> pure_exit,
// strtok -> pure_strtok); nothing when the call stays as it is.
std::optional<llvm::StringRef> libc_replacement(llvm::StringRef function);

// Why a C library function without a per-rank form is unsafe when ranks are
// threads, for a warning; nothing when it is safe.
std::optional<llvm::StringRef> libc_hazard(llvm::StringRef function);

// Regular expressions over the qualified names of the two lists above, for
// the AST matchers.
std::string libc_replacement_regex();
std::string libc_hazard_regex();

// Objects that the C library defines itself (environ, optarg, ...): a
// program may redeclare them with `extern`, but they stay the process's, so
// they are never made thread-local.
bool is_libc_object(llvm::StringRef name);

}  // namespace mpi2pure
