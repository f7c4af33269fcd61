// What the multi-process checks share: the rank's place in the world and a
// CHECK that names the rank, the file and line, the condition and the
// values, and ends the job with exit code 1 (a failed check in one process
// must end every process).
#pragma once

#include <pure/pure.h>

#include <cstddef>
#include <cstdio>
#include <vector>

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

// The byte at position i of a message from `from` to `to` with sequence k.
inline unsigned char pattern(int from, int to, int k, std::size_t i) {
  return static_cast<unsigned char>(from * 31 + to * 17 + k * 7 + i * 13 + (i >> 8));
}
inline std::vector<unsigned char> message(int from, int to, int k, std::size_t n) {
  std::vector<unsigned char> m(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = pattern(from, to, k, i);
  return m;
}
inline void check_message(const unsigned char* got, int from, int to, int k, std::size_t n,
                          const char* what) {
  for (std::size_t i = 0; i < n; ++i)
    CHECK(got[i] == pattern(from, to, k, i), "%s: message %d from %d, byte %zu of %zu: %d", what,
          k, from, i, n, got[i]);
}

// Every blocking collective on `comm` (coll_check.cpp); `salt` varies the data.
void coll_on(PURE_Comm comm, int salt);
// Mode `coll`: coll_on on the world.
void run_coll();
// Mode `requests` (requests_check.cpp): nonblocking collectives, comm_idup,
// persistent requests, matched probes, cancelled sends, isendrecv.
void run_requests();
// Mode `datatypes` (datatypes_check.cpp): derived types, PURE_BOTTOM, basic
// elements, large counts and external32 between processes.
void run_datatypes();
// Mode `batches` (batches_check.cpp): storms of batched, announced and
// synchronous messages between processes, received every way MPI allows.
void run_batches();
