#include "sched/scheduler.h"

#include <algorithm>
#include <cstdio>

#include "base/error.h"
#include "base/topology.h"
#include "sched/helpers.h"

namespace pure::sched {

Scheduler::Scheduler(const Config& config, const Peers& peers,
                     const std::vector<Waiter*>& waiters,
                     std::function<void(Worker*)> on_helper_thread)
    : config_(config), peers_(peers), ranks_(peers.size()),
      slots_(new Slot[static_cast<size_t>(peers.size())]) {
  const Topology& topology = Topology::get();
  const bool pinned = config_.bind == Bind::core;
  // Rank i runs on core i % cores when pinned (job/process.cpp); its NUMA
  // node is that core's. Unpinned ranks may run anywhere: one group.
  for (int i = 0; i < ranks_; ++i) {
    const int node = pinned ? topology.numa_node_of_core(i) : 0;
    workers_.push_back(
        std::make_unique<Worker>(*this, i, true, *waiters[static_cast<size_t>(i)], node));
    if (static_cast<int>(ranks_by_node_.size()) <= node) ranks_by_node_.resize(node + 1);
    ranks_by_node_[static_cast<size_t>(node)].push_back(i);
  }
  // Helpers take the cores the ranks leave free, if any.
  std::vector<int> helper_cores;
  for (int h = 0; h < config_.helpers; ++h) {
    const int core = ranks_ + h;
    helper_cores.push_back(pinned && core < topology.cores() ? core : -1);
  }
  const bool crowded = ranks_ + config_.helpers > topology.cores();
  helpers_ = std::make_unique<HelperThreads>(*this, helper_cores,
                                             BackoffPolicy::for_mode(config_.wait, crowded),
                                             std::move(on_helper_thread));
  for (int h = 0; h < config_.helpers; ++h) {
    const int core = helper_cores[static_cast<size_t>(h)];
    workers_.push_back(std::make_unique<Worker>(*this, ranks_ + h, false,
                                                helpers_->waiter(static_cast<size_t>(h)),
                                                core >= 0 ? topology.numa_node_of_core(core) : -1));
    helpers_->set_worker(static_cast<size_t>(h), workers_.back().get());
  }
}

Scheduler::~Scheduler() = default;

void Scheduler::start_helpers() { helpers_->start(); }
void Scheduler::stop_helpers() { helpers_->stop(); }
bool Scheduler::helpers_busy() const { return helpers_->busy(); }

PURE_Task_stats Scheduler::helper_stats() const {
  PURE_Task_stats sum{0, 0, 0};
  for (size_t i = static_cast<size_t>(ranks_); i < workers_.size(); ++i) {
    const PURE_Task_stats s = workers_[i]->stats();
    sum.tasks += s.tasks;
    sum.own_chunks += s.own_chunks;
    sum.stolen_chunks += s.stolen_chunks;
  }
  return sum;
}

void Scheduler::run_serial(Worker& worker, const TaskBody& body, std::int64_t chunks) {
  Worker::ChunkScope scope(worker, chunks);
  trace::Buffer* const trace = worker.waiter().trace();
  const std::uint64_t began = trace ? trace::now() : 0;
  body.run(body.body, 0, chunks - 1, body.args, body.has_args);
  if (trace)
    trace->push(trace::Event{began, trace::now(), "chunk", 0, -1, -1, 0,
                             static_cast<std::int32_t>(chunks - 1), trace::Event::Kind::chunk,
                             trace::How::none});
  worker.count_own(chunks);
}

void Scheduler::execute(Worker& worker, const TaskBody& body, std::int64_t requested) {
  const std::int64_t max = config_.max_task_chunks;
  const std::int64_t chunks = requested <= 0 ? max : std::min(requested, max);
  if (worker.rank()) worker.count_task();
  trace::Slice traced(worker.waiter().trace(), "task");
  // Nested, on a helper, nobody to share with, or nothing to share: no slot
  // to publish in (or no one to read it), so run here. A nested task never
  // waits for others, so a chunk can never wait on itself.
  if (worker.in_chunk() || !worker.rank() || ranks_ + config_.helpers == 1 || chunks == 1) {
    run_serial(worker, body, chunks);
    return;
  }
  Waiter& waiter = worker.waiter();
  const int self = worker.id();
  Task task(body, chunks, ranks_ + config_.helpers, config_.chunk_policy);
  trace::Buffer* const trace = waiter.trace();
  if (trace) {
    task.trace_id = static_cast<std::uint64_t>(worker.stats().tasks);
    task.trace_begin = trace::now();
  }
  Slot& slot = slots_[static_cast<size_t>(self)];
  // Counted before it is visible, so that a thief that sees the slot also
  // passes the quick active_ check (a hint only: relaxed).
  active_.fetch_add(1, std::memory_order_relaxed);
  // seq_cst: pairs with the thieves' pin-then-load (see the header).
  slot.task.store(&task, std::memory_order_seq_cst);
  // Ranks parked in a wait loop, and parked helpers, would otherwise only
  // see the task when their park times out.
  for (int r = 0; r < ranks_; ++r)
    if (r != self) peers_.parker(r).notify();
  helpers_->notify_all();

  // Work: claim and run until nothing is left to claim.
  std::int64_t start = 0;
  std::int64_t end = 0;
  while (task.claim(&start, &end)) {
    if (waiter.aborted()) task.fail(std::make_exception_ptr(JobAborted{}));
    const std::uint64_t began = trace ? trace::now() : 0;
    if (task.run(worker, start, end)) worker.count_own(end - start + 1);
    if (trace)
      trace->push(trace::Event{began, trace::now(), "chunk", 0, -1, -1,
                               static_cast<std::int32_t>(start), static_cast<std::int32_t>(end),
                               trace::Event::Kind::chunk, trace::How::none});
  }

  // Unpublish, then wait until the chunks that thieves claimed have
  // completed and no thief can still hold the pointer.
  slot.task.store(nullptr, std::memory_order_seq_cst);
  active_.fetch_sub(1, std::memory_order_relaxed);
  auto settled = [&] {
    return task.finished() && slot.pins.load(std::memory_order_seq_cst) == 0;
  };
  if (!settled()) {
    const WaitSite site{"pure_task_execute", -1, -1};
    try {
      waiter.wait_until(settled, site);
    } catch (...) {
      // The job is ending (JobAborted, or an error in this rank's progress),
      // but stolen chunks still run user code that uses this stack frame: it
      // must not unwind before they are done. Thieves wake us as they unpin.
      waiter.wait_until(settled, site, kWaitNoWork | kWaitIgnoreAbort);
      throw;
    }
  }
  if (std::exception_ptr error = task.error()) {
    // Failed for the abort: this rank unwinds as from any wait, once every
    // rank has settled (base/waiter.h, AbortState).
    if (waiter.aborted()) waiter.unwind_for_abort();
    std::rethrow_exception(error);
  }
}

bool Scheduler::steal_slow(Worker& thief) {
  if (config_.steal_policy == StealPolicy::sticky && thief.last_victim >= 0 &&
      try_steal(thief, thief.last_victim))
    return true;
  if (config_.steal_policy != StealPolicy::numa || thief.numa_node() < 0 ||
      ranks_by_node_.size() < 2)
    return scan_all(thief);
  // NUMA-aware: the thief's own node first, then the others in turn.
  const size_t nodes = ranks_by_node_.size();
  const size_t own = static_cast<size_t>(thief.numa_node());
  for (size_t k = 0; k < nodes; ++k)
    if (scan(thief, ranks_by_node_[(own + k) % nodes])) return true;
  return false;
}

// Every other rank once, from a random one on.
bool Scheduler::scan_all(Worker& thief) {
  const int start = static_cast<int>(thief.next_random() % static_cast<std::uint64_t>(ranks_));
  for (int i = 0; i < ranks_; ++i) {
    int victim = start + i;
    if (victim >= ranks_) victim -= ranks_;
    if (victim != thief.id() && try_steal(thief, victim)) return true;
  }
  return false;
}

bool Scheduler::scan(Worker& thief, const std::vector<int>& victims) {
  const size_t n = victims.size();
  if (n == 0) return false;
  const size_t start = static_cast<size_t>(thief.next_random() % n);
  for (size_t i = 0; i < n; ++i) {
    const int victim = victims[(start + i) % n];
    if (victim != thief.id() && try_steal(thief, victim)) return true;
  }
  return false;
}

bool Scheduler::try_steal(Worker& thief, int victim) {
  Slot& slot = slots_[static_cast<size_t>(victim)];
  // A plain load first: probing an empty slot must not write its line.
  if (slot.task.load(std::memory_order_relaxed) == nullptr) return false;
  slot.pins.fetch_add(1, std::memory_order_seq_cst);
  Task* task = slot.task.load(std::memory_order_seq_cst);
  bool ran = false;
  if (task != nullptr) {
    std::int64_t start = 0;
    std::int64_t end = 0;
    if (task->claim(&start, &end)) {
      // Running a chunk is work, not waiting: the deadlock watchdog must not
      // count this rank as blocked, nor this helper as idle, meanwhile.
      WaitStatus& status = thief.waiter().status();
      trace::Buffer* const trace = thief.waiter().trace();
      const std::uint64_t began = trace ? trace::now() : 0;
      status.set_working(true);
      task->run(thief, start, end);
      status.set_working(false);
      // Only tasks published while tracing carry a begin time.
      if (trace && task->trace_begin)
        trace->push(trace::Event{began, trace::now(), "stolen chunk", task->trace_id,
                                 static_cast<std::int64_t>(task->trace_begin), victim,
                                 static_cast<std::int32_t>(start), static_cast<std::int32_t>(end),
                                 trace::Event::Kind::stolen, trace::How::none});
      thief.count_stolen(end - start + 1);
      thief.last_victim = victim;
      ran = true;
    } else {
      // Every chunk is handed out: take it out of the table so that other
      // thieves stop pinning it. Safe while pinned: the owner cannot have
      // returned, so the slot cannot hold a newer task yet.
      slot.task.compare_exchange_strong(task, nullptr, std::memory_order_seq_cst);
    }
  }
  slot.pins.fetch_sub(1, std::memory_order_seq_cst);
  // The owner may be parked waiting for this chunk or this unpin.
  peers_.parker(victim).notify();
  return ran;
}

}  // namespace pure::sched
