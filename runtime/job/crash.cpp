#include "job/crash.h"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace pure::crash {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kBacktraceDepth = 24;
// The alternate stack: the handler formats a line and walks the stack.
constexpr std::size_t kAltStackBytes = 64 * 1024;

std::atomic<bool> g_installed{false};
int g_process = 0;
// Only the first crash of the process reports; a second thread crashing
// meanwhile waits for the process to end.
std::atomic<bool> g_reporting{false};
// Both set by the process's threads, read in a handler or terminate on
// any thread: release on set pairs with acquire on read (what the last
// words reach, the Process, was built before it was set).
std::atomic<void (*)()> g_last_words{nullptr};
std::atomic<void (*)(int)> g_farewell{nullptr};
std::atomic<int> g_ending{0};
// How long the crashing process waits for the child that writes its last
// words.
constexpr int kLastWordsMs = 5000;

// The calling thread's, set by enter_thread: read in the handler (static
// thread-local storage of the executable: async-signal-safe to read).
struct ThreadState {
  int rank = -1;
  bool entered = false;
  std::uintptr_t stack_low = 0;   // lowest address of the thread's stack
  std::uintptr_t guard_low = 0;   // below it, the guard page(s)
  void* alt_stack = nullptr;
};
thread_local ThreadState t_state;

// ---- async-signal-safe formatting ----
struct Line {
  char text[512];
  std::size_t used = 0;
  void add(const char* s) {
    while (*s && used + 1 < sizeof text) text[used++] = *s++;
  }
  void add_int(long long v) {
    char digits[24];
    int n = 0;
    const bool negative = v < 0;
    unsigned long long u = negative ? 0ull - static_cast<unsigned long long>(v)
                                    : static_cast<unsigned long long>(v);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u && n < 23);
    if (negative) add("-");
    while (n) {
      const char c[2] = {digits[--n], 0};
      add(c);
    }
  }
  void add_hex(std::uintptr_t v) {
    add("0x");
    char digits[20];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v && n < 19);
    while (n) {
      const char c[2] = {digits[--n], 0};
      add(c);
    }
  }
  void write_to(int fd) {
    std::size_t done = 0;
    while (done < used) {
      const ssize_t n = ::write(fd, text + done, used - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  }
};

const char* describe(int signo) {
  switch (signo) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (aborted)";
    default: return "signal";
  }
}

// Runs the last words (set_last_words) in a forked child, waiting for it
// at most kLastWordsMs.
void write_last_words() {
  void (*last_words)() = g_last_words.load(std::memory_order_acquire);
  if (!last_words) return;
  const pid_t child = fork();
  if (child == 0) {
    last_words();
    _exit(0);
  }
  if (child < 0) return;
  int status = 0;
  const timespec tick{0, 10 * 1000 * 1000};
  for (int waited = 0; waitpid(child, &status, WNOHANG) == 0; waited += 10) {
    if (waited >= kLastWordsMs) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      Line late;
      late.add("pure: the trace and statistics were not written in time\n");
      late.write_to(STDERR_FILENO);
      return;
    }
    nanosleep(&tick, nullptr);
  }
}

// std::terminate while the job ends (set_ending): an abort's unwinding left
// a noexcept destructor (a rank waiting in MPI_Win_free from one, say). The
// cause is reported already; the process ends with the abort's status.
std::terminate_handler g_previous_terminate = nullptr;
[[noreturn]] void on_terminate() {
  if (const int code = g_ending.load(std::memory_order_acquire)) {
    if (!g_reporting.exchange(true)) write_last_words();
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);
  }
  if (g_previous_terminate) g_previous_terminate();
  std::abort();
}

void handler(int signo, siginfo_t* info, void*) {
  if (g_reporting.exchange(true)) {
    // Another thread is reporting and will end the process.
    for (;;) pause();
  }
  const ThreadState& self = t_state;
  const auto address = reinterpret_cast<std::uintptr_t>(info ? info->si_addr : nullptr);
  Line line;
  line.add("pure: ");
  if (self.rank >= 0) {
    line.add("rank ");
    line.add_int(self.rank);
  } else {
    line.add(self.entered ? "a helper thread" : "a thread that runs no rank");
  }
  line.add(" (process ");
  line.add_int(g_process);
  line.add("): ");
  const bool overflow = signo == SIGSEGV && self.stack_low != 0 && address < self.stack_low &&
                        address + 65536 >= self.guard_low;
  if (overflow) {
    line.add("stack overflow (SIGSEGV at ");
    line.add_hex(address);
    line.add(", just below the stack of ");
    line.add(self.rank >= 0 ? "the rank)" : "the thread)");
  } else {
    line.add(describe(signo));
    if (signo != SIGABRT) {
      line.add(" at address ");
      line.add_hex(address);
    }
  }
  line.add("\n");
  line.write_to(STDERR_FILENO);
  void* frames[kBacktraceDepth];
  const int depth = backtrace(frames, kBacktraceDepth);
  Line heading;
  heading.add("pure: backtrace:\n");
  heading.write_to(STDERR_FILENO);
  backtrace_symbols_fd(frames, depth, STDERR_FILENO);
  write_last_words();
  if (void (*farewell)(int) = g_farewell.load(std::memory_order_acquire)) farewell(128 + signo);
  // The default action, with the signal's own status: the process ends here.
  signal(signo, SIG_DFL);
  raise(signo);
}

}  // namespace

void install(int process) {
  if (g_installed.exchange(true)) return;
  g_process = process;
  // backtrace loads libgcc on its first call (which allocates): do it now,
  // outside any handler.
  void* frames[2];
  backtrace(frames, 2);
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int s : kSignals) sigaction(s, &action, nullptr);
  g_previous_terminate = std::set_terminate(on_terminate);
}

void set_ending(int code) { g_ending.store(code, std::memory_order_release); }

void set_last_words(void (*last_words)()) {
  g_last_words.store(last_words, std::memory_order_release);
}

void set_farewell(void (*farewell)(int status)) {
  g_farewell.store(farewell, std::memory_order_release);
}

void enter_thread(int rank) {
  ThreadState& self = t_state;
  self.rank = rank;
  self.entered = true;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = nullptr;
    std::size_t size = 0, guard = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) {
      self.stack_low = reinterpret_cast<std::uintptr_t>(low);
      pthread_attr_getguardsize(&attr, &guard);
      self.guard_low = self.stack_low - guard;
    }
    pthread_attr_destroy(&attr);
  }
  if (!self.alt_stack) {
    self.alt_stack = std::malloc(kAltStackBytes);
    if (!self.alt_stack) return;
    stack_t alt;
    alt.ss_sp = self.alt_stack;
    alt.ss_size = kAltStackBytes;
    alt.ss_flags = 0;
    if (sigaltstack(&alt, nullptr) != 0) {
      std::free(self.alt_stack);
      self.alt_stack = nullptr;
    }
  }
}

void leave_thread() {
  ThreadState& self = t_state;
  if (self.alt_stack) {
    stack_t off;
    std::memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    std::free(self.alt_stack);
    self.alt_stack = nullptr;
  }
  self = ThreadState{};
}

}  // namespace pure::crash
