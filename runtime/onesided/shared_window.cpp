#include "onesided/shared_window.h"

#include <cstdlib>

namespace pure::onesided {

SharedWindow::SharedWindow(const std::vector<Parker*>& parkers, std::vector<int> local_of)
    : size_(static_cast<int>(parkers.size())),
      local_of_(std::move(local_of)),
      targets_(new Target[parkers.size()]) {
  const std::size_t words = (parkers.size() + 63) / 64;
  for (int i = 0; i < size_; ++i) {
    Target& t = target(i);
    t.parker = parkers[static_cast<std::size_t>(i)];
    t.posted.reset(new std::atomic<std::uint64_t>[words]);
    for (std::size_t w = 0; w < words; ++w) t.posted[w].store(0, std::memory_order_relaxed);
  }
}

SharedWindow::~SharedWindow() {
  for (int i = 0; i < size_; ++i) std::free(target(i).owned);
}

void SharedWindow::barrier(Waiter& waiter, std::uint64_t& generation, const WaitSite& site) {
  const std::uint64_t gen = ++generation;
  const std::uint64_t all = gen * static_cast<std::uint64_t>(size_);
  // acq_rel: the last arrival's add reads every earlier add (a release
  // sequence on one word), so it acquires what every member did before.
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == all) {
    // Release pairs with the waiters' acquire below: with the acq_rel add,
    // every member's writes before the barrier happen-before every
    // member's reads after it.
    released_.store(gen, std::memory_order_release);
    wake_all();
    return;
  }
  waiter.wait_until([&] { return released_.load(std::memory_order_acquire) >= gen; }, site,
                    kWaitTight);
}

}  // namespace pure::onesided
