// What the processor offers to code that shares cache lines between threads:
// the line size every layout here is built around, a pause for spin loops,
// and a request for a line in exclusive state ahead of a store.
#pragma once

#include <cstddef>

namespace pure {

// Every independently written atomic gets a line of its own (alignas) and
// layouts are checked with static_assert against this, never counted by hand.
constexpr std::size_t kCacheLine = 64;

// One pause in a spin loop: eases the pressure on the sibling hyperthread and
// on the memory system without giving up the core.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Asks for the line at `p` in exclusive state, ahead of a store to it: for a
// line of ours that nobody reads until we publish it again, so that the store
// does not wait for the line to come back from its last reader.
inline void prefetch_for_write(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetchw %0" ::"m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1, 3);
#endif
}

}  // namespace pure
