#include "sched/helpers.h"

#include <sched.h>

#include "job/rank.h"
#include "sched/scheduler.h"
#include "base/topology.h"

namespace pure::sched {

HelperThreads::HelperThreads(Scheduler& scheduler, std::vector<Worker*> workers,
                             std::vector<int> cores, BackoffPolicy backoff)
    : scheduler_(scheduler), backoff_(backoff) {
  for (size_t i = 0; i < workers.size(); ++i) {
    auto helper = std::make_unique<Helper>();
    helper->worker = workers[i];
    helper->core = cores[i];
    helpers_.push_back(std::move(helper));
  }
}

HelperThreads::~HelperThreads() { stop(); }

void HelperThreads::start() {
  stop_.store(false, std::memory_order_relaxed);
  for (auto& h : helpers_) {
    Helper* helper = h.get();
    helper->thread = std::thread([this, helper] { main(*helper); });
  }
}

void HelperThreads::stop() {
  stop_.store(true, std::memory_order_release);
  for (auto& h : helpers_) h->parker.notify();
  for (auto& h : helpers_)
    if (h->thread.joinable()) h->thread.join();
}

void HelperThreads::notify_all() {
  for (auto& h : helpers_) h->parker.notify();
}

bool HelperThreads::busy() const {
  for (auto& h : helpers_)
    if (h->worker->busy()) return true;
  return false;
}

void HelperThreads::main(Helper& helper) {
  if (helper.core >= 0) Topology::get().bind_current_thread(helper.core);
  Rank::set_current_worker(helper.worker);
  std::uint32_t round = 0;
  while (!stop_.load(std::memory_order_acquire)) {
    if (scheduler_.steal(*helper.worker)) {
      round = 0;
      continue;
    }
    if (round < backoff_.spin_rounds) {
      cpu_relax();
    } else if (round < backoff_.spin_rounds + backoff_.yield_rounds) {
      sched_yield();
    } else {
      // Announce, re-check, sleep (parker.h): a task published after the
      // re-check notifies us, so none is missed for long.
      std::uint32_t token = helper.parker.prepare();
      if (stop_.load(std::memory_order_acquire)) {
        helper.parker.cancel();
        break;
      }
      if (scheduler_.steal(*helper.worker)) {
        helper.parker.cancel();
        round = 0;
        continue;
      }
      helper.parker.park(token, backoff_.park_timeout_ns);
    }
    ++round;
  }
  Rank::set_current_worker(nullptr);
}

}  // namespace pure::sched
