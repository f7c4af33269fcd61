// The C library stand-ins of pure/compat.h. Ranks are threads, so the hidden
// state that libc keeps per process (the rand seed, strtok's position, the
// static struct tm of localtime) must be kept per rank, and exit/abort must
// end a rank or the job instead of the whole process at once.
//
// That state lives in one thread_local object: a rank is exactly one thread
// for its whole life, and these functions are also called outside the flat
// MPI layer (from code that never calls Pure), where Rank::current() may be
// all there is. Keeping it out of Rank keeps libc emulation out of the
// runtime's core.
#include "pure/compat.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "api/call.h"
#include "job/rank_exit.h"

namespace pure {
namespace {

struct RankLibcState {
  // glibc's rand() is random(): the TYPE_3 additive feedback generator on a
  // 128-byte state, seeded with 1 until srand/srandom. random_r on a state of
  // the same size is that generator with the state passed in.
  random_data rand_data{};  // must start zeroed for initstate_r
  alignas(std::int32_t) char rand_state[128] = {};
  bool rand_ready = false;
  char* strtok_save = nullptr;
  std::tm tm_buffer{};
  char time_text[64] = {};  // ctime_r/asctime_r need at least 26 bytes
  char error_text[256] = {};
};

thread_local RankLibcState libc_state;

void seed_rand(unsigned int seed) {
  RankLibcState& s = libc_state;
  if (!s.rand_ready) {
    initstate_r(seed, s.rand_state, sizeof s.rand_state, &s.rand_data);
    s.rand_ready = true;
  } else {
    srandom_r(seed, &s.rand_data);
  }
}

std::int32_t next_random() {
  RankLibcState& s = libc_state;
  if (!s.rand_ready) seed_rand(1);
  std::int32_t value = 0;
  random_r(&s.rand_data, &value);
  return value;
}

}  // namespace

}  // namespace pure

extern "C" {

void pure_exit(int status) {
  pure::Rank* rank = pure::Rank::current();
  if (!rank) std::exit(status);
  // A process that exits flushes its streams; the rank's output must not
  // wait for the whole job to end either.
  std::fflush(nullptr);
  if (status != 0)
    pure::api::fatal(*rank, "exit", status,
                     "called exit(" + std::to_string(status) + "); ending the job");
  throw pure::RankExit{};
}

void pure_abort_job(void) {
  pure::Rank* rank = pure::Rank::current();
  if (!rank) std::abort();
  std::fflush(nullptr);
  pure::api::fatal(*rank, "abort", 134, "called abort(); ending the job");
}

int pure_rand(void) { return static_cast<int>(pure::next_random()); }
void pure_srand(unsigned int seed) { pure::seed_rand(seed); }
long pure_random(void) { return static_cast<long>(pure::next_random()); }
void pure_srandom(unsigned int seed) { pure::seed_rand(seed); }

char* pure_strtok(char* str, const char* delim) {
  return strtok_r(str, delim, &pure::libc_state.strtok_save);
}

struct tm* pure_localtime(const void* timer) {
  return localtime_r(static_cast<const std::time_t*>(timer), &pure::libc_state.tm_buffer);
}

struct tm* pure_gmtime(const void* timer) {
  return gmtime_r(static_cast<const std::time_t*>(timer), &pure::libc_state.tm_buffer);
}

char* pure_ctime(const void* timer) {
  return ctime_r(static_cast<const std::time_t*>(timer), pure::libc_state.time_text);
}

char* pure_asctime(const struct tm* tm) { return asctime_r(tm, pure::libc_state.time_text); }

char* pure_strerror(int errnum) {
  char* text = pure::libc_state.error_text;
  // g++ defines _GNU_SOURCE, so this is the GNU strerror_r: it returns the
  // message, which may be a static string instead of the buffer.
  const char* message = strerror_r(errnum, text, sizeof pure::libc_state.error_text);
  if (message != text) {
    std::strncpy(text, message, sizeof pure::libc_state.error_text - 1);
    text[sizeof pure::libc_state.error_text - 1] = '\0';
  }
  return text;
}

}  // extern "C"
