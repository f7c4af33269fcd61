// Per-rank counters for PURE_STATS: what a rank sent and received, within
// its process and to others, how long it was blocked, and how many
// collectives it called. Written by the rank's own thread only (plain
// fields), read when the job ends, after the thread stopped. With
// PURE_STATS off a thread's pointer to them is null and every hook is one
// load and a branch. (Task chunk counts live with the scheduler.)
#pragma once

#include <cstdint>

namespace pure {

struct RankStats {
  struct Traffic {
    std::uint64_t messages = 0;
    std::uint64_t bytes = 0;
    void add(std::uint64_t n) {
      ++messages;
      bytes += n;
    }
  };
  Traffic sent_local, sent_remote, received_local, received_remote;
  std::uint64_t blocked = 0;  // time in the wait loop (tight spins excepted), in trace stamps
  std::uint64_t collectives = 0;
};

}  // namespace pure
