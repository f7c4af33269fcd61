// What the multi-process checks share: the calling rank, and CHECK / OK,
// which name the rank, the place and the values of a failed check and end
// the job with exit code 1.
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

// The datatype checks (datatypes_check.cpp): derived types, PURE_BOTTOM,
// basic elements, large counts and external32 between processes.
void run_datatypes();
