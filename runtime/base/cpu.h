// What the processor offers to code that shares cache lines between threads:
// the line size every layout here is built around, a pause for spin loops,
// a request for a line in exclusive state ahead of a store, and the
// store-load fence of the handshakes.
#pragma once

#include <atomic>
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

// The store-load order of a handshake between two threads where each
// stores (publishes, or announces itself) and then loads what the other
// stored: with this between, at least one of them sees the other's store
// (Dekker's order; without it a store may still sit in the store buffer
// when the load runs). A policy type, so that tests/litmus_test.cpp can build
// a protocol without it and show that its litmus test catches the loss.
struct SeqCstFence {
  static void store_load() { std::atomic_thread_fence(std::memory_order_seq_cst); }
};

}  // namespace pure
