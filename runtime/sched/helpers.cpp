#include "sched/helpers.h"

#include "base/topology.h"
#include "sched/scheduler.h"

namespace pure::sched {

HelperThreads::HelperThreads(Scheduler& scheduler, std::vector<int> cores, BackoffPolicy backoff,
                             std::function<void(Worker*)> on_thread)
    : on_thread_(std::move(on_thread)) {
  for (int core : cores) helpers_.push_back(std::make_unique<Helper>(scheduler, core, backoff));
}

HelperThreads::~HelperThreads() { stop(); }

bool HelperThreads::Helper::steal() { return scheduler.steal(*worker); }

void HelperThreads::start() {
  stop_.store(false, std::memory_order_relaxed);
  for (auto& h : helpers_) {
    Helper* helper = h.get();
    helper->thread = std::thread([this, helper] { main(*helper); });
  }
}

void HelperThreads::stop() {
  stop_.store(true, std::memory_order_release);
  for (auto& h : helpers_) h->waiter.parker().notify();
  for (auto& h : helpers_)
    if (h->thread.joinable()) h->thread.join();
}

void HelperThreads::notify_all() {
  for (auto& h : helpers_) h->waiter.parker().notify();
}

bool HelperThreads::busy() const {
  for (auto& h : helpers_)
    if (h->waiter.status().working()) return true;
  return false;
}

void HelperThreads::main(Helper& helper) {
  if (helper.core >= 0) Topology::get().bind_current_thread(helper.core);
  if (on_thread_) on_thread_(helper.worker);
  // The wait loop steals until told to stop; stop() notifies our Parker
  // after setting the flag (release; our acquire load pairs with it).
  helper.waiter.wait_until([&] { return stop_.load(std::memory_order_acquire); },
                           WaitSite{"helper thread", -1, -1});
  if (on_thread_) on_thread_(nullptr);
}

}  // namespace pure::sched
