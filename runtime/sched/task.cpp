#include "sched/task.h"

#include "sched/worker.h"

namespace pure::sched {

bool Task::run(Worker& worker, std::int64_t start, std::int64_t end) {
  bool ran = false;
  // Relaxed: a stale "not failed" only runs a chunk that a failure made
  // useless, which is harmless.
  if (!failed_.load(std::memory_order_relaxed)) {
    Worker::ChunkScope scope(worker, chunks_);
    try {
      body_.run(body_.body, start, end, body_.args, body_.has_args);
      ran = true;
    } catch (...) {
      fail(std::current_exception());
    }
  }
  // Release: the chunk's writes (and error_) happen before the owner's
  // acquire load that sees the final count.
  done_.fetch_add(end - start + 1, std::memory_order_acq_rel);
  return ran;
}

void Task::fail(std::exception_ptr error) {
  // Only the first failure writes error_; the owner reads it after every
  // chunk is done, ordered by done_.
  if (!failed_.exchange(true, std::memory_order_acq_rel)) error_ = std::move(error);
}

}  // namespace pure::sched
