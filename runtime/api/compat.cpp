// The C library stand-ins of pure/compat.h, part 1: each rank's state
// (compat_state.h), how a rank ends (exit, abort, atexit) and the random
// generators. Ranks are threads, so the hidden state that libc keeps per
// process must be kept per rank, and exit/abort must end a rank or the job
// instead of the whole process at once.
#include "pure/compat.h"

#include <math.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api/call.h"
#include "api/compat_state.h"
#include "job/rank_exit.h"
#include "job/rank_globals.h"

namespace pure::compat {
namespace {

void end_rank_libc(void* state) {
  auto* libc = static_cast<RankLibc*>(state);
  flush_rank_streams(*libc);
  delete libc;
}

void seed_rand(RankLibc& s, unsigned int seed) {
  if (!s.rand_ready) {
    initstate_r(seed, s.rand_state, sizeof s.rand_state, &s.rand_data);
    s.rand_ready = true;
  } else {
    srandom_r(seed, &s.rand_data);
  }
}

// glibc's rand() is random(): the TYPE_3 additive feedback generator on a
// 128-byte state, seeded with 1 until srand/srandom, behind a lock.
std::int32_t next_random() {
  RankLibc& s = rank_libc();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.rand_ready) seed_rand(s, 1);
  std::int32_t value = 0;
  random_r(&s.rand_data, &value);
  return value;
}

void call_handler(void* handler) {
  reinterpret_cast<void (*)()>(handler)();
}

struct OnExit {
  void (*handler)(int, void*);
  void* arg;
};

void call_on_exit(void* p) {
  const OnExit h = *static_cast<OnExit*>(p);
  delete static_cast<OnExit*>(p);
  h.handler(0, h.arg);  // a rank ends through exit(0) or by returning 0
}

}  // namespace

RankLibc& rank_libc() {
  RankShared* rank = RankGlobals::current();
  if (!rank) {
    static RankLibc* const process = new RankLibc(-1);  // lives until the process ends
    return *process;
  }
  // Acquire pairs with the exchange below in whichever thread of the rank
  // made the state: it is fully built before we use it.
  if (void* p = rank->libc.load(std::memory_order_acquire)) return *static_cast<RankLibc*>(p);
  auto fresh = std::make_unique<RankLibc>(rank->world);
  // Published with the state by the exchange below (RankGlobals::finish
  // reads `libc` first), so relaxed would do.
  rank->libc_cleanup.store(&end_rank_libc, std::memory_order_release);
  void* expected = nullptr;
  // Release publishes the new state and libc_cleanup to the acquire load
  // above and to RankGlobals::finish; on failure the acquire pairs with the
  // winner's exchange.
  if (rank->libc.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel))
    return *fresh.release();
  return *static_cast<RankLibc*>(expected);  // another thread of the rank was first
}

}  // namespace pure::compat

using pure::compat::rank_libc;
using pure::compat::RankLibc;

extern "C" {

void pure_exit(int status) {
  pure::Rank* rank = pure::Rank::current();
  if (!rank) std::exit(status);
  // A process that exits flushes its streams; the rank's output must not
  // wait for the whole job to end either.
  pure::compat::flush_rank_streams(rank_libc());
  std::fflush(nullptr);
  if (status != 0)
    pure::api::end_job(*rank, "exit", status,
                     "called exit(" + std::to_string(status) + "); ending the job");
  throw pure::RankExit{};
}

void pure_abort_job(void) {
  pure::Rank* rank = pure::Rank::current();
  if (!rank) std::abort();
  pure::compat::flush_rank_streams(rank_libc());
  std::fflush(nullptr);
  pure::api::end_job(*rank, "abort", 134, "called abort(); ending the job");
}

int pure_atexit(void (*handler)(void)) {
  if (pure_rank_at_exit(pure::compat::call_handler, reinterpret_cast<void*>(handler)) == 0)
    return 0;
  return std::atexit(handler);  // no rank's thread: the process's
}

int pure_on_exit(void (*handler)(int, void*), void* arg) {
  if (!pure::RankGlobals::current()) return on_exit(handler, arg);
  auto* h = new pure::compat::OnExit{handler, arg};
  if (pure_rank_at_exit(pure::compat::call_on_exit, h) == 0) return 0;
  delete h;
  return -1;
}

int pure_rand(void) { return static_cast<int>(pure::compat::next_random()); }
long pure_random(void) { return static_cast<long>(pure::compat::next_random()); }

void pure_srand(unsigned int seed) {
  RankLibc& s = rank_libc();
  std::lock_guard<std::mutex> lock(s.mutex);
  pure::compat::seed_rand(s, seed);
}
void pure_srandom(unsigned int seed) { pure_srand(seed); }

char* pure_initstate(unsigned int seed, char* state, size_t size) {
  RankLibc& s = rank_libc();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.rand_ready) pure::compat::seed_rand(s, 1);
  // glibc's random_data points one word past the start of the state array.
  char* old = reinterpret_cast<char*>(s.rand_data.state - 1);
  if (initstate_r(seed, state, size, &s.rand_data) != 0) return nullptr;
  return old;
}

char* pure_setstate(char* state) {
  RankLibc& s = rank_libc();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.rand_ready) pure::compat::seed_rand(s, 1);
  char* old = reinterpret_cast<char*>(s.rand_data.state - 1);
  if (setstate_r(state, &s.rand_data) != 0) return nullptr;
  return old;
}

// The 48-bit generators: glibc's own _r functions on the rank's
// drand48_data, which starts zeroed as glibc's does; erand48 & co. take the
// state from the caller and the multiplier (lcong48) from the rank.
double pure_drand48(void) {
  double r = 0;
  drand48_r(&rank_libc().drand, &r);
  return r;
}
double pure_erand48(unsigned short xsubi[3]) {
  double r = 0;
  erand48_r(xsubi, &rank_libc().drand, &r);
  return r;
}
long pure_lrand48(void) {
  long r = 0;
  lrand48_r(&rank_libc().drand, &r);
  return r;
}
long pure_nrand48(unsigned short xsubi[3]) {
  long r = 0;
  nrand48_r(xsubi, &rank_libc().drand, &r);
  return r;
}
long pure_mrand48(void) {
  long r = 0;
  mrand48_r(&rank_libc().drand, &r);
  return r;
}
long pure_jrand48(unsigned short xsubi[3]) {
  long r = 0;
  jrand48_r(xsubi, &rank_libc().drand, &r);
  return r;
}
void pure_srand48(long seed) { srand48_r(seed, &rank_libc().drand); }
unsigned short* pure_seed48(unsigned short seed16v[3]) {
  RankLibc& s = rank_libc();
  seed48_r(seed16v, &s.drand);
  return s.drand.__old_x;  // where glibc's seed48 returns the previous state too
}
void pure_lcong48(unsigned short param[7]) { lcong48_r(param, &rank_libc().drand); }

double pure_lgamma(double x) { return lgamma_r(x, &rank_libc().signgam); }
float pure_lgammaf(float x) { return lgammaf_r(x, &rank_libc().signgam); }
long double pure_lgammal(long double x) { return lgammal_r(x, &rank_libc().signgam); }
int* pure_signgam(void) { return &rank_libc().signgam; }

}  // extern "C"
