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

// What differs for a C library function whose state is the process's by
// nature (umask, signal, fork, ...), for purecc's report; nothing when the
// function is per rank or has no such state.
std::optional<llvm::StringRef> libc_hazard(llvm::StringRef function);

// What a C library object that each rank has its own of (stdout, optind,
// signgam, environ, std::cout, ...) becomes, by qualified name without the
// leading "::"; nothing for other objects.
std::optional<llvm::StringRef> libc_object_replacement(llvm::StringRef qualified_name);

// Regular expressions over the qualified names of the lists above, for the
// AST matchers.
std::string libc_replacement_regex();
std::string libc_hazard_regex();
std::string libc_object_regex();

// Objects that the C library defines itself (environ, optarg, ...): a
// program may redeclare them with `extern`, but they stay the process's, so
// they are never made thread-local.
bool is_libc_object(llvm::StringRef name);

}  // namespace mpi2pure
