// Comparing the members' calls (call_log.h).
#include "collectives/call_log.h"

#include <cstring>

#include "base/error.h"
#include "collectives/dropbox.h"
#include "comm/comm.h"

namespace pure::coll {

namespace {

// The Comm whose Dropbox holds the members' logs: the local view of a
// communicator spanning processes (where its collectives' local stages run).
const Comm& logged(const Comm& comm) { return comm.spans_processes() ? comm.local() : comm; }

// Length of a call's name without the suffix of a large-count (_c) twin,
// which is the same collective as its int call.
std::size_t base_length(const char* call) {
  const std::size_t n = std::strlen(call);
  return n > 2 && std::strcmp(call + n - 2, "_c") == 0 ? n - 2 : n;
}

bool same_call(const char* a, const char* b) {
  if (a == b) return true;
  const std::size_t na = base_length(a);
  return na == base_length(b) && std::strncmp(a, b, na) == 0;
}

[[noreturn]] void report(const Comm& c, std::uint64_t t, int me, const char* mine, int k,
                         const char* theirs) {
  // A local view's ranks are not the program's: name world ranks there.
  const bool local_view = (c.context() & kLocalContextBit) != 0;
  const char* rank = local_view ? "world rank" : "rank";
  fail(PURE_ERR_OTHER,
       "mismatched collectives on %s: %s %d called %s where %s %d called %s (collective call %llu "
       "on it; every rank must call the same collectives in the same order)",
       c.name().c_str(), rank, local_view ? c.world_of(me) : me, mine, rank,
       local_view ? c.world_of(k) : k, theirs, static_cast<unsigned long long>(t));
}

}  // namespace

std::int64_t tagged_check(const char* call, std::size_t bytes) {
  // FNV-1a, folded to 15 bits and never 0 (0 is an untagged word).
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0, n = base_length(call); i < n; ++i)
    h = (h ^ static_cast<unsigned char>(call[i])) * 16777619u;
  const std::int64_t tag = static_cast<std::int64_t>(((h ^ (h >> 15)) & 0x7fff) | 1);
  return (tag << kCallTagShift) | static_cast<std::int64_t>(bytes);
}

void check_calls(const Comm& comm) {
  const Comm& c = logged(comm);
  Dropbox& box = dropbox(c);
  const int me = c.rank();
  const CallLog& own = box.call_log(me);
  const std::uint64_t now = own.current();
  // Every call both logs still hold: a mismatch may have passed unnoticed
  // (a bcast root leaves at once; a barrier may meet another's round), and
  // the calls after it then pair up and wait as if matched.
  const std::uint64_t first = now > kCallLogDepth ? now - kCallLogDepth + 1 : 1;
  for (std::uint64_t t = first; t <= now; ++t) {
    const char* mine = own.at(t);
    if (!mine) continue;
    for (int k = 0; k < c.size(); ++k) {
      if (k == me) continue;
      const char* theirs = box.call_log(k).at(t);
      if (theirs && !same_call(theirs, mine)) report(c, t, me, mine, k, theirs);
    }
  }
}

void fail_disagreement(const Comm& comm, int code, const std::string& message) {
  check_calls(comm);
  throw Error(code, message);
}

void check_calls_of(const void* comm) { check_calls(*static_cast<const Comm*>(comm)); }

}  // namespace pure::coll
