// Shared helpers for the tests that run Pure jobs in-process.
//
// run_ranks() starts a job of n rank threads through pure::run; each rank
// calls pure_init, the test body, and pure_finalize. GoogleTest's EXPECT_*
// may be used from rank threads (gtest is thread-safe on Linux); a rank that
// must stop early simply returns from the body or throws, which ends the job
// with a non-zero code instead of a hang.
//
// Payloads are generated from a key (e.g. source, destination and sequence
// number) so that a receiver can check every byte it got without having seen
// the sender's buffer.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pure/pure.h"
#include "job_config.h"
#include "rank_sweep.h"
#include "pure/run.hpp"

extern "C" char** environ;

// Checks that a flat-API call succeeded, naming the call when it did not.
#define EXPECT_PURE_OK(expr) EXPECT_EQ(PURE_SUCCESS, (expr)) << #expr

namespace pure_testing {

// The rank counts most concurrency suites run with (the CI machine has two
// cores, so 8 and 16 exercise oversubscription).
inline const auto kRankCounts = rank_sweep({2, 4, 8, 16});

inline std::string rank_count_name(const testing::TestParamInfo<int>& info) {
  return "ranks" + std::to_string(info.param);
}

using Body = std::function<void(int rank, int size)>;

// Runs `body` on n ranks between pure_init and pure_finalize and returns the
// job's exit code (0 when every rank finished normally).
inline int run_ranks(int n, const Body& body, pure::Config base = {}) {
  base = job_config(base);
  base.ranks = n;
  return pure::run(base, [&](int argc, char** argv) {
    if (pure_init(&argc, &argv) != PURE_SUCCESS) return 101;
    int rank = -1;
    int size = -1;
    pure_comm_rank(PURE_COMM_WORLD, &rank);
    pure_comm_size(PURE_COMM_WORLD, &size);
    body(rank, size);
    return pure_finalize() == PURE_SUCCESS ? 0 : 102;
  });
}

// Runs the job and expects it to end normally (exit code 0). Failures name
// the code, not the whole lambda as EXPECT_EQ(0, run_ranks(...)) would.
inline void expect_clean_run(int n, const Body& body, pure::Config base = {}) {
  const int code = run_ranks(n, body, base);
  EXPECT_EQ(code, 0) << "the job of " << n << " ranks ended with exit code " << code;
}

// Completes a request a collective call made: waits for it, or, when it is
// persistent, runs it twice (`reset` clears the outputs before each run, so
// the checks that follow see what the second run wrote) and frees it.
inline void complete_request(bool persistent, PURE_Request r, const std::function<void()>& reset) {
  if (!persistent) {
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    return;
  }
  for (int run = 0; run < 2; ++run) {
    reset();
    EXPECT_PURE_OK(pure_start(&r));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    EXPECT_NE(r, PURE_REQUEST_NULL);
  }
  EXPECT_PURE_OK(pure_request_free(&r));
}

// A job's exit code together with everything it printed on stderr.
struct JobResult {
  int code;
  std::string err;
};

// Runs `job` with stderr captured (the runtime reports fatal errors there).
inline JobResult capture_stderr(const std::function<int()>& job) {
  testing::internal::CaptureStderr();
  int code = -1;
  try {
    code = job();
  } catch (...) {
    std::string err = testing::internal::GetCapturedStderr();
    ADD_FAILURE() << "the job threw; stderr was:\n" << err;
    throw;
  }
  return {code, testing::internal::GetCapturedStderr()};
}

inline JobResult run_ranks_capturing(int n, const Body& body, pure::Config base = {}) {
  return capture_stderr([&] { return run_ranks(n, body, base); });
}

// A hang guard for loops that poll (pure_test*, pure_iprobe). Such loops
// never enter the runtime's wait loop, so its deadlock watchdog cannot end
// them; after `limit_s` seconds without success the guard fails the test and
// throws, which ends the job (the other ranks are released by the abort).
// It is a guard against hangs, not a timing assertion.
class PollGuard {
 public:
  explicit PollGuard(const char* what, double limit_s = 30)
      : what_(what), limit_(limit_s), start_(std::chrono::steady_clock::now()) {}
  void operator()() {
    if ((++polls_ & 1023) != 0) return;
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start_;
    if (waited.count() < limit_) return;
    ADD_FAILURE() << what_ << ": still polling after " << polls_ << " polls, " << limit_ << " s";
    throw std::runtime_error(std::string(what_) + ": polling never succeeded (hang)");
  }

 private:
  const char* what_;
  double limit_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t polls_ = 0;
};

// ---- deterministic payloads ----

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline std::uint64_t key_of(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0,
                            std::uint64_t d = 0) {
  return mix(mix(mix(mix(a) ^ b) ^ c) ^ d);
}

// Byte i of the payload named by `key`.
inline unsigned char payload_byte(std::uint64_t key, std::size_t i) {
  return static_cast<unsigned char>(mix(key ^ (i / 8)) >> (8 * (i % 8)));
}

inline void fill_payload(void* buf, std::size_t bytes, std::uint64_t key) {
  auto* p = static_cast<unsigned char*>(buf);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word = mix(key ^ (i / 8));
    std::memcpy(p + i, &word, 8);
  }
  for (; i < bytes; ++i) p[i] = payload_byte(key, i);
}

// Index of the first byte that differs from the payload, or `bytes` if none.
inline std::size_t payload_mismatch(const void* buf, std::size_t bytes, std::uint64_t key) {
  const auto* p = static_cast<const unsigned char*>(buf);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word = mix(key ^ (i / 8));
    if (std::memcmp(p + i, &word, 8) != 0) break;
  }
  for (; i < bytes; ++i)
    if (p[i] != payload_byte(key, i)) return i;
  return bytes;
}

inline std::vector<char> make_payload(std::size_t bytes, std::uint64_t key) {
  std::vector<char> v(bytes);
  fill_payload(v.data(), bytes, key);
  return v;
}

// gtest-friendly check: "payload ok" or a description of the first bad byte.
inline testing::AssertionResult payload_ok(const void* buf, std::size_t bytes,
                                           std::uint64_t key) {
  std::size_t bad = payload_mismatch(buf, bytes, key);
  if (bad == bytes) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "payload differs at byte " << bad << " of " << bytes << ": got "
         << int(static_cast<const unsigned char*>(buf)[bad]) << ", expected "
         << int(payload_byte(key, bad));
}

// ---- point-to-point checks ----

inline void expect_status(const PURE_Status& st, int source, int tag, std::size_t bytes) {
  EXPECT_EQ(st.MPI_SOURCE, source);
  EXPECT_EQ(st.MPI_TAG, tag);
  int count = -1;
  EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &count));
  EXPECT_EQ(count, static_cast<int>(bytes));
}

// The status of PURE_PROC_NULL and of an empty (null-request) completion.
inline void expect_proc_null_status(const PURE_Status& st) {
  EXPECT_EQ(st.MPI_SOURCE, PURE_PROC_NULL);
  EXPECT_EQ(st.MPI_TAG, PURE_ANY_TAG);
  int count = -1;
  EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &count));
  EXPECT_EQ(count, 0);
}

inline void expect_empty_status(const PURE_Status& st) {
  EXPECT_EQ(st.MPI_SOURCE, PURE_ANY_SOURCE);
  EXPECT_EQ(st.MPI_TAG, PURE_ANY_TAG);
  int count = -1;
  EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &count));
  EXPECT_EQ(count, 0);
}

// Run-time configurations that change the point-to-point paths: the default,
// a small eager limit (more messages take the rendezvous path), and a queue
// of two slots (the ring fills at once).
struct Tuning {
  const char* name;
  std::size_t eager_limit;
  int queue_slots;
};
inline const Tuning kTunings[] = {{"default", 8192, 16}, {"eager256", 256, 16}, {"slots2", 8192, 2}};

inline pure::Config config_of(const Tuning& s) {
  pure::Config c;
  c.eager_limit = s.eager_limit;
  c.queue_slots = s.queue_slots;
  return c;
}

// Saves every PURE_* variable, clears them, and restores them afterwards:
// for tests of settings read from the environment.
class CleanPureEnvironment {
 public:
  CleanPureEnvironment() {
    for (char** e = environ; e && *e; ++e)
      if (std::strncmp(*e, "PURE_", 5) == 0) saved_.emplace_back(*e);
    for (const std::string& kv : saved_) unsetenv(kv.substr(0, kv.find('=')).c_str());
  }
  ~CleanPureEnvironment() {
    std::vector<std::string> now;
    for (char** e = environ; e && *e; ++e)
      if (std::strncmp(*e, "PURE_", 5) == 0) now.emplace_back(*e);
    for (const std::string& kv : now) unsetenv(kv.substr(0, kv.find('=')).c_str());
    for (const std::string& kv : saved_) {
      const size_t eq = kv.find('=');
      setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    }
  }
  CleanPureEnvironment(const CleanPureEnvironment&) = delete;
  CleanPureEnvironment& operator=(const CleanPureEnvironment&) = delete;

 private:
  std::vector<std::string> saved_;
};

}  // namespace pure_testing
