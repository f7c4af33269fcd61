// What the multi-process checks share: the rank's place in the world and a
// CHECK that names the rank, the file and line, the condition and the
// values, and ends the job with exit code 1 (a failed check in one process
// must end every process).
#pragma once

#include <pure/pure.h>

#include <cstdio>

// Ranks are threads: per-rank globals must be thread-local.
inline thread_local int g_rank = -1, g_size = -1;

#define CHECK(cond, ...)                                                          \
  do {                                                                            \
    if (!(cond)) {                                                                \
      std::fprintf(stderr, "multiproc_check: rank %d: %s:%d: check failed: %s: ", \
                   g_rank, __FILE__, __LINE__, #cond);                            \
      std::fprintf(stderr, __VA_ARGS__);                                          \
      std::fprintf(stderr, "\n");                                                 \
      pure_abort(PURE_COMM_WORLD, 1);                                             \
    }                                                                             \
  } while (0)

#define OK(call) CHECK((call) == PURE_SUCCESS, "%s", #call)

// Mode `requests` (requests_check.cpp): nonblocking collectives, comm_idup,
// persistent requests, matched probes, cancelled sends, isendrecv.
void run_requests();
// Mode `datatypes` (datatypes_check.cpp): derived types, PURE_BOTTOM, basic
// elements, large counts and external32 between processes.
void run_datatypes();
