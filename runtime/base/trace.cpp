#include "base/trace.h"

#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace pure::trace {

namespace {
// splitmix64's finaliser: spreads every input bit over the whole word.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

namespace {
bool kernel_keeps_time_with_tsc() {
#if defined(__x86_64__)
  std::FILE* f = std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (!f) return false;
  char name[32] = {};
  const bool tsc = std::fgets(name, sizeof name, f) && std::strncmp(name, "tsc", 3) == 0;
  std::fclose(f);
  return tsc;
#else
  return false;
#endif
}

// Where calibration starts: a stamp and CLOCK_MONOTONIC read together at
// program start.
struct Origin {
  std::uint64_t stamp;
  std::uint64_t ns;
};
Origin read_origin(bool ticks) {
  Origin o{};
  o.ns = monotonic_ns();
#if defined(__x86_64__)
  o.stamp = ticks ? __rdtsc() : o.ns;
#else
  o.stamp = o.ns;
#endif
  return o;
}
}  // namespace

const bool kStampsAreTicks = kernel_keeps_time_with_tsc();
namespace {
const Origin kOrigin = read_origin(kStampsAreTicks);
}  // namespace

Calibration::Calibration() {
  if (!kStampsAreTicks) return;
  std::uint64_t ns = monotonic_ns();
  if (ns - kOrigin.ns < 2000000) {  // too short a span to measure the rate on
    const timespec pause{0, 5000000};
    nanosleep(&pause, nullptr);
    ns = monotonic_ns();
  }
  const std::uint64_t stamp = now();
  ns_per_stamp_ = static_cast<double>(ns - kOrigin.ns) / static_cast<double>(stamp - kOrigin.stamp);
}

std::uint64_t Calibration::to_ns(std::uint64_t stamp) const {
  if (!kStampsAreTicks) return stamp;
  const double since = static_cast<double>(static_cast<std::int64_t>(stamp - kOrigin.stamp));
  return kOrigin.ns + static_cast<std::uint64_t>(static_cast<std::int64_t>(since * ns_per_stamp_));
}

std::uint64_t Calibration::span_ns(std::uint64_t stamps) const {
  return kStampsAreTicks ? static_cast<std::uint64_t>(static_cast<double>(stamps) * ns_per_stamp_) : stamps;
}

bool polls(const char* call) {
  for (const char* prefix : {"pure_test", "pure_iprobe", "pure_improbe", "pure_request_get_status"})
    if (std::strncmp(call, prefix, std::strlen(prefix)) == 0) return true;
  return false;
}

const char* how_name(How how) {
  switch (how) {
    case How::none: return "none";
    case How::spin: return "spin";
    case How::yield: return "yield";
    case How::park: return "park";
    case How::fiber: return "fiber switch";
  }
  return "?";
}

std::uint64_t flow_id(int sender, int receiver, int context, int tag, std::uint64_t k) {
  std::uint64_t h = mix(static_cast<std::uint32_t>(sender) |
                        static_cast<std::uint64_t>(static_cast<std::uint32_t>(receiver)) << 32);
  h = mix(h ^ (static_cast<std::uint32_t>(context) |
               static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32));
  h = mix(h ^ k);
  // Chrome's JSON loses integers above 2^53: keep ids below it (and never 0).
  return (h >> 11) | 1;
}

FlowCounts::FlowCounts() : entries_(new Entry[kEntries]) {}

std::uint64_t FlowCounts::next(int peer, int context, int tag) {
  // mix(0) is 0: the golden-ratio offsets keep (peer 0, context 0) from
  // hashing to 0 and so every tag of it to the same key.
  const std::uint64_t key = mix(mix((static_cast<std::uint32_t>(peer) |
                                     static_cast<std::uint64_t>(static_cast<std::uint32_t>(context)) << 32) +
                                    0x9e3779b97f4a7c15ull) ^
                                (static_cast<std::uint32_t>(tag) + 0x9e3779b97f4a7c15ull));
  const std::uint64_t k = key ? key : 1;  // 0 marks a free entry
  for (std::size_t i = k % kEntries, probes = 0; probes < kEntries; i = (i + 1) % kEntries, ++probes) {
    Entry& e = entries_[i];
    if (e.key == k) return ++e.count;
    if (e.key == 0) {
      // Keep a quarter free so that probes stay short.
      if (used_ >= kEntries - kEntries / 4) return 0;
      ++used_;
      e.key = k;
      return e.count = 1;
    }
  }
  return 0;
}

}  // namespace pure::trace
