#include "base/parker.h"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace pure {

bool ParkerWord::asymmetric_supported() {
  static const bool supported = [] {
    const long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return false;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  }();
  return supported;
}

void ParkerWord::process_barrier() {
  // Registered in asymmetric_supported(), so this cannot fail; if it did,
  // notifiers that skipped their fence could lose a wake-up: stop loudly.
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
    std::perror("pure: membarrier");
    std::abort();
  }
}

void ParkerWord::park(std::uint32_t token, long timeout_ns) {
  // A futex wait that times out or finds the word moved sets errno; the
  // program's errno must not change across a Pure call that succeeds.
  const int saved_errno = errno;
  timespec ts{timeout_ns / 1000000000L, timeout_ns % 1000000000L};
  // The kernel compares the word with `token` atomically with going to sleep,
  // so a wake() that moved the epoch in between makes this return at once.
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&state_), FUTEX_WAIT_PRIVATE, token,
          timeout_ns > 0 ? &ts : nullptr, nullptr, 0);
  // Withdraw the announcement if it is still ours; a notifier may have done it.
  state_.compare_exchange_strong(token, token & ~1u, std::memory_order_relaxed);
  errno = saved_errno;
}

void ParkerWord::sleep_for(long ns) {
  const int saved_errno = errno;
  timespec ts{ns / 1000000000L, ns % 1000000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
  errno = saved_errno;
}

void ParkerWord::wake(std::uint32_t seen) {
  // Clearing bit 0 and bumping the epoch in one step means concurrent
  // notifiers wake the waiter once; a failed exchange means someone else did
  // or the waiter withdrew, and in both cases nothing more is owed.
  if (state_.compare_exchange_strong(seen, (seen + 2u) & ~1u, std::memory_order_relaxed))
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&state_), FUTEX_WAKE_PRIVATE, 1, nullptr,
            nullptr, 0);
}

}  // namespace pure
