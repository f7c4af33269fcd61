#include "base/fiber.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__) && defined(__linux__)
#include <asm/prctl.h>
#include <linux/futex.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>
#define PURE_FIBERS_X86_64 1
#endif

// The scheduler's own code. ThreadSanitizer keeps its per-thread state in
// thread-locals, so it sees each rank fiber as a thread of its own wherever
// it runs (its accesses stay in program order), but not the hand-overs,
// which are assembly: the scheduler's bookkeeping, touched by whichever
// rank runs on a host, is left out of its view, and so is a host's idle
// loop, which has no thread-locals of its own to use.
// Clang's no_sanitize("thread") still instruments atomics and function
// entry and exit, which use the sanitizer's thread-local state; its
// disable_sanitizer_instrumentation leaves the code alone entirely.
#if defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define PURE_NO_TSAN __attribute__((disable_sanitizer_instrumentation))
#endif
#endif
#ifndef PURE_NO_TSAN
#define PURE_NO_TSAN __attribute__((no_sanitize("thread")))
#endif

namespace pure {

// The scheduler's shared words, through the compiler's atomic builtins: in
// ThreadSanitizer's trees std::atomic's members are calls into instrumented
// code (they are not inlined into uninstrumented callers), which would use
// the thread-locals of whatever rank's thread pointer a host's idle loop
// borrows. The builtins are plain instructions.
namespace {
template <class T>
PURE_NO_TSAN inline T load(const T& word, int order) {
  return __atomic_load_n(&word, order);
}
template <class T>
PURE_NO_TSAN inline void store(T& word, T value, int order) {
  __atomic_store_n(&word, value, order);
}
}  // namespace

#ifdef PURE_FIBERS_X86_64

// pure_fiber_switch(save, sp, fs, from): saves the callee-saved registers,
// MXCSR and the x87 control word (the System V ABI's callee-saved state) on
// the current stack, stores the stack pointer in *save, then switches to the
// stack `sp` (saved the same way), makes `fs` the thread pointer (wrfsbase,
// or arch_prctl: pure_fiber_fsgsbase) and restores
// what was saved there. It returns into whoever saved `sp`, with `from` as
// its value: the context that switched there, whose saved state the new
// one then publishes (Fibers::arrived).
//
// pure_fiber_idle: where a host's idle loop starts, on its own small stack,
// with r12 = the Host and rax = `from`.
//
// pure_fiber_sleep: where a member's kernel thread waits once it has handed
// over its rank; entered on its own small stack with r12 = &parked and
// r13 = &final_sp. It announces itself (parked = 1; a plain x86 store is a
// release) and sleeps on the futex until the host stores 2, then resumes
// the rank's final context. Raw system calls only: glibc's wrappers would
// write errno, which lives in the rank's thread-local block, in use by the
// rank on its host meanwhile.
asm(R"(
  .text
  .globl pure_fiber_switch
  .hidden pure_fiber_switch
  .type pure_fiber_switch, @function
pure_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  movq %rcx, %rax
  cmpb $0, pure_fiber_fsgsbase(%rip)
  je 1f
  wrfsbase %rdx
  jmp pure_fiber_restore
1:
  movq %rax, %r8
  movq %rdx, %rsi
  movl $)" "4098" R"(, %edi
  movl $)" "158" R"(, %eax
  syscall
  movq %r8, %rax
pure_fiber_restore:
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size pure_fiber_switch, .-pure_fiber_switch

  .globl pure_fiber_sleep
  .hidden pure_fiber_sleep
  .type pure_fiber_sleep, @function
pure_fiber_sleep:
  movl $1, (%r12)
1:
  movl (%r12), %eax
  cmpl $2, %eax
  je 2f
  movq %r12, %rdi
  movl $)" "128" R"(, %esi
  movl $1, %edx
  xorl %r10d, %r10d
  movl $)" "202" R"(, %eax
  syscall
  jmp 1b
2:
  movq (%r13), %rsp
  xorl %eax, %eax
  jmp pure_fiber_restore
  .size pure_fiber_sleep, .-pure_fiber_sleep

  .globl pure_fiber_idle
  .hidden pure_fiber_idle
  .type pure_fiber_idle, @function
pure_fiber_idle:
  movq %r12, %rdi
  movq %rax, %rsi
  call pure_fibers_idle
  ud2
  .size pure_fiber_idle, .-pure_fiber_idle
)");

extern "C" void* pure_fiber_switch(void** save, void* sp, void* fs, void* from);
extern "C" void pure_fiber_sleep();
extern "C" void pure_fiber_idle();

static_assert(FUTEX_WAIT_PRIVATE == 128, "pure_fiber_sleep hard-codes FUTEX_WAIT_PRIVATE");
static_assert(SYS_futex == 202, "pure_fiber_sleep hard-codes SYS_futex");
static_assert(SYS_arch_prctl == 158 && ARCH_SET_FS == 4098,
              "pure_fiber_switch_syscall hard-codes arch_prctl(ARCH_SET_FS)");

namespace {
bool has_fsgsbase() {
#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif
  return (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
}
}  // namespace

// How pure_fiber_switch writes the thread pointer: wrfsbase where the kernel
// lets user space do it (1), else the arch_prctl system call, which costs a
// kernel entry per switch but none of a kernel thread switch's scheduling.
// Set by Fibers' constructor, before any switch; read by the assembly only.
extern "C" {
__attribute__((used, visibility("hidden"))) unsigned char pure_fiber_fsgsbase = 0;
}

namespace {
void* thread_pointer() {
  // The thread control block's first word points at itself (the x86-64
  // TLS ABI): the FS base, read without rdfsbase.
  void* fs;
  asm volatile("movq %%fs:0, %0" : "=r"(fs));
  return fs;
}
// System calls without glibc's wrappers, which write errno, a thread-local:
// a host's idle loop runs with a thread pointer that a rank may be using on
// another host at the same time.
PURE_NO_TSAN long raw_syscall3(long number, long a, long b, long c) {
  long ret;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(number), "D"(a), "S"(b), "d"(c)
               : "rcx", "r11", "memory");
  return ret;
}
PURE_NO_TSAN void set_signal_mask(const sigset_t* set) {
  long ret;
  register long size asm("r10") = 8;  // the kernel's sigset: the first 8 bytes of glibc's
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(SYS_rt_sigprocmask), "D"(SIG_SETMASK), "S"(set), "d"(nullptr), "r"(size)
               : "rcx", "r11", "memory");
}
PURE_NO_TSAN void futex_wake(std::uint32_t* word) {
  raw_syscall3(SYS_futex, reinterpret_cast<long>(word), FUTEX_WAKE_PRIVATE, 1);
}
PURE_NO_TSAN void kernel_yield() { raw_syscall3(SYS_sched_yield, 0, 0, 0); }
}  // namespace

bool Fibers::supported() { return true; }
bool Fibers::fast_switch() { return has_fsgsbase(); }

#else  // not x86-64 Linux: never constructed (see Fibers::Fibers)

namespace {
[[noreturn]] void unsupported() { std::abort(); }
void* pure_fiber_switch(void**, void*, void*, void*) { unsupported(); }
void pure_fiber_sleep() { unsupported(); }
void pure_fiber_idle() { unsupported(); }
void* thread_pointer() { unsupported(); }
void futex_wake(std::uint32_t*) { unsupported(); }
void kernel_yield() { unsupported(); }
void set_signal_mask(const sigset_t*) { unsupported(); }
}  // namespace
bool Fibers::supported() { return false; }
bool Fibers::fast_switch() { return false; }

#endif

namespace {
// A fiber's state, claimed and published through Fiber::state.
enum : int {
  kStarting,  // its thread has not handed it over yet (takeable once parked == 1)
  kSaved,     // its context is saved: any host may take it
  kRunning,   // a host runs it
  kDone,      // a host rank that finished, its final context saved: its host resumes it last
};
constexpr std::size_t kSmallStackBytes = 16 * 1024;

// A context on a small stack of its own that pure_fiber_switch's restore
// "returns" into `entry`, with r12 and r13 set. From the lowest address:
// MXCSR and x87 control word, r15, r14, r13, r12, rbx, rbp, return address.
void* small_context(std::unique_ptr<char[]>& stack, void (*entry)(), void* r12, void* r13) {
  stack.reset(new char[kSmallStackBytes]);
  auto top = reinterpret_cast<std::uintptr_t>(stack.get() + kSmallStackBytes) & ~std::uintptr_t{15};
  auto* frame = reinterpret_cast<std::uint64_t*>(top) - 8;
  std::uint32_t fpu[2] = {0x1F80, 0x037F};  // MXCSR and x87 control word at their defaults
  std::memcpy(&frame[0], fpu, sizeof fpu);
  frame[1] = 0;                                      // r15
  frame[2] = 0;                                      // r14
  frame[3] = reinterpret_cast<std::uint64_t>(r13);   // r13
  frame[4] = reinterpret_cast<std::uint64_t>(r12);   // r12
  frame[5] = 0;                                      // rbx
  frame[6] = 0;                                      // rbp
  frame[7] = reinterpret_cast<std::uint64_t>(entry);
  return frame;
}
}  // namespace

struct alignas(64) Fibers::Fiber {
  int index = 0;
  void* sp = nullptr;        // the saved context while it does not run
  void* final_sp = nullptr;  // the context saved when its rank was done
  void* fs = nullptr;        // its thread's thread pointer (FS base)
  // kStarting .. kDone. Taken by a compare-and-swap (acquire), published by
  // the context that runs after it on its host (arrived, release): that is
  // when its saved context is complete.
  int state = kStarting;
  // The host that runs it, or ran it last: where it is taken first. A hint.
  int owner = 0;
  // The host running it; written by that host before switching to it.
  Host* host = nullptr;
  bool finished = false;  // written by itself in leave, read by arrived after
  // 1 once its kernel thread sleeps on its own stack (stored by
  // pure_fiber_sleep); arrived stores 2 to send it back to its rank.
  std::uint32_t parked = 0;
  std::unique_ptr<char[]> sleep_stack;
  // Its kernel thread's signal mask before it went to sleep with every
  // signal blocked: a handler run there would use the rank's thread-locals.
  sigset_t signals;
};

struct alignas(64) Fibers::Host {
  Fibers* fibers = nullptr;
  int index = 0;
  Fiber* own = nullptr;      // the rank whose kernel thread this host is
  void* idle_sp = nullptr;   // its idle loop's context while a rank runs
  std::unique_ptr<char[]> idle_stack;
  // Switches this host made; another host that sees it unchanged since its
  // last look finds this one busy (running one rank all along). Relaxed
  // everywhere: a heuristic for where to look, ordering nothing.
  std::uint64_t switches = 0;
  std::unique_ptr<std::uint64_t[]> seen;  // the others' switches at this host's last look
  std::unique_ptr<char[]> busy;           // pick's scratch: which hosts it may take from
  std::uint64_t* seen_at = nullptr;       // the same, raw (see load and store)
  char* busy_at = nullptr;
  std::size_t next = 0;             // where the idle loop's next scan starts
  // Its kernel thread's signal mask while it runs ranks. Its idle loop runs
  // with every signal blocked: it uses its own rank's thread pointer, and
  // that rank may be running on another host, so a handler run there would
  // share the rank's thread-locals (errno, a sanitizer's state) with it.
  sigset_t signals;
};

namespace {
sigset_t every_signal() {
  sigset_t all;
  sigfillset(&all);
  return all;
}
const sigset_t g_every_signal = every_signal();
}  // namespace

// Called from pure_fiber_idle only (the library binds its calls locally:
// -Bsymbolic-functions, so no lazy binding runs on the idle stack).
extern "C" [[noreturn]] __attribute__((used)) PURE_NO_TSAN void pure_fibers_idle(void* host,
                                                                              void* from) {
  Fibers::Host& h = *static_cast<Fibers::Host*>(host);
  h.fibers->idle(h, static_cast<Fibers::Fiber*>(from));
}

Fibers::Fibers(int ranks, int hosts) {
  if (!supported())
    throw std::logic_error("pure: rank fibers need x86-64 Linux; ask Fibers::supported() first");
#ifdef PURE_FIBERS_X86_64
  pure_fiber_fsgsbase = has_fsgsbase() ? 1 : 0;
#endif
  for (int i = 0; i < ranks; ++i) {
    fibers_.push_back(std::make_unique<Fiber>());
    Fiber& f = *fibers_.back();
    f.index = i;
    f.owner = i % hosts;
  }
  for (int h = 0; h < hosts; ++h) {
    hosts_.push_back(std::make_unique<Host>());
    Host& host = *hosts_.back();
    host.fibers = this;
    host.index = h;
    host.own = fibers_[static_cast<std::size_t>(h)].get();
    host.seen.reset(new std::uint64_t[static_cast<std::size_t>(hosts)]());
    host.busy.reset(new char[static_cast<std::size_t>(hosts)]());
    host.idle_sp = small_context(host.idle_stack, &pure_fiber_idle, &host, nullptr);
  }
  unfinished_ = ranks;
  // Raw views for the idle loop (see load and store above).
  for (auto& f : fibers_) fiber_at_.push_back(f.get());
  for (auto& h : hosts_) {
    host_at_.push_back(h.get());
    h->seen_at = h->seen.get();
    h->busy_at = h->busy.get();
  }
  fiber_list_ = fiber_at_.data();
  host_list_ = host_at_.data();
  nfibers_ = ranks;
  nhosts_ = hosts;
}

Fibers::~Fibers() = default;

// Claims `f` for the calling host when its context is saved.
static PURE_NO_TSAN bool try_take(int& state, const std::uint32_t& parked) {
  // Relaxed: a hint; the compare-and-swap below decides.
  int s = load(state, __ATOMIC_RELAXED);
  if (s == kStarting) {
    // Acquire, pairing with pure_fiber_sleep's store of 1 (a plain x86
    // store: a release), which follows its save of the fiber's context.
    if (load(parked, __ATOMIC_ACQUIRE) != 1) return false;
  } else if (s != kSaved) {
    return false;
  }
  // Acquire, pairing with arrived's release store of kSaved: the context
  // saved by the switch that left the fiber is complete before we load it.
  return __atomic_compare_exchange_n(&state, &s, kRunning, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

// Takes the first takeable rank, round-robin after `start`, whose owner
// `wanted` accepts.
template <class Wanted>
PURE_NO_TSAN Fibers::Fiber* Fibers::take(Host& host, const Fiber* me, std::size_t start,
                                         Wanted wanted) {
  const std::size_t n = static_cast<std::size_t>(nfibers_);
  Fiber* const* fibers = fiber_list_;
  for (std::size_t k = 1; k <= n; ++k) {
    Fiber& f = *fibers[(start + k) % n];
    if (&f == me || !wanted(load(f.owner, __ATOMIC_RELAXED))) continue;
    if (try_take(f.state, f.parked)) {
      store(f.owner, host.index, __ATOMIC_RELAXED);
      host.next = static_cast<std::size_t>(f.index);
      return &f;
    }
  }
  return nullptr;
}

namespace {
struct OwnedBy {
  int host;
  PURE_NO_TSAN bool operator()(int owner) const { return owner == host; }
};
struct NotOwnedBy {
  int host;
  PURE_NO_TSAN bool operator()(int owner) const { return owner != host; }
};
struct OwnedByBusy {
  const char* busy;
  PURE_NO_TSAN bool operator()(int owner) const { return busy[owner] != 0; }
};
}  // namespace

PURE_NO_TSAN Fibers::Fiber* Fibers::pick(Host& host, const Fiber* me, bool steal) {
  const std::size_t start = me ? static_cast<std::size_t>(me->index) : host.next;
  if (steal && me) {
    // The caller's wait went round without progress: a rank of a host that
    // has not switched since this host last looked first. It may be ready
    // to run while that host is busy; this host's own ranks are waiting.
    bool any = false;
    char* busy = host.busy_at;
    std::uint64_t* seen = host.seen_at;
    for (int o = 0; o < nhosts_; ++o) {
      const std::uint64_t now = load(host_list_[o]->switches, __ATOMIC_RELAXED);
      busy[o] = o != host.index && now == seen[o];
      seen[o] = now;
      any = any || busy[o];
    }
    if (any) {
      if (Fiber* f = take(host, me, start, OwnedByBusy{busy})) return f;
    }
  }
  // The ranks this host ran last (their data is in its cache).
  if (Fiber* f = take(host, me, start, OwnedBy{host.index})) return f;
  // A host with nothing else to run (its idle loop): any rank.
  if (steal && !me) return take(host, me, start, NotOwnedBy{host.index});
  return nullptr;
}

PURE_NO_TSAN void Fibers::arrived(Fiber* from) {
  if (!from) return;
  if (!from->finished) {
    // Release: its saved context (stored by the switch that left it) is
    // complete for whoever takes it.
    store(from->state, static_cast<int>(kSaved), __ATOMIC_RELEASE);
    return;
  }
  if (from->index >= nhosts_) {
    // Release: its final context is visible to pure_fiber_sleep once it
    // sees 2; its kernel thread resumes it and ends.
    store(from->state, static_cast<int>(kDone), __ATOMIC_RELAXED);
    store(from->parked, std::uint32_t{2}, __ATOMIC_RELEASE);
    futex_wake(&from->parked);
  } else {
    // A host's own rank: its host resumes it once every rank is done.
    store(from->state, static_cast<int>(kDone), __ATOMIC_RELEASE);
  }
  // Release, pairing with the idle loop's acquire load of unfinished_.
  __atomic_fetch_sub(&unfinished_, 1, __ATOMIC_ACQ_REL);
}

PURE_NO_TSAN void Fibers::switch_to(Fiber& from, void** save, Fiber& to, Host& host) {
  to.host = &host;
  store(host.switches, host.switches + 1, __ATOMIC_RELAXED);  // its host alone writes it
  void* prev = pure_fiber_switch(save, to.sp, to.fs, &from);
  // Our turn again (on any host, or on our own thread after leave()).
  resumed(from, static_cast<Fiber*>(prev));
}

PURE_NO_TSAN void Fibers::resumed(Fiber& me, Fiber* from) {
  // From an idle loop (or a kernel thread's final resume): signals were
  // blocked there; the host's own mask again.
  if (!from && me.host) set_signal_mask(&me.host->signals);
  arrived(from);
}

PURE_NO_TSAN void Fibers::idle(Host& host, Fiber* from) {
  arrived(from);
  for (;;) {
    Fiber& own = *host.own;
    // Acquire, both pairing with arrived's release (its decrement, and its
    // store of kDone): our own rank's final context is saved.
    if (load(unfinished_, __ATOMIC_ACQUIRE) == 0 &&
        load(own.state, __ATOMIC_ACQUIRE) == kDone) {
      // Every rank is done: this kernel thread resumes its own rank's final
      // context (in leave) and never comes back here.
      pure_fiber_switch(&host.idle_sp, own.final_sp, own.fs, nullptr);
    }
    if (Fiber* f = pick(host, nullptr, true)) {
      f->host = &host;
      store(host.switches, host.switches + 1, __ATOMIC_RELAXED);
      // Signals stay blocked until f runs (Fibers::resumed).
      arrived(static_cast<Fiber*>(pure_fiber_switch(&host.idle_sp, f->sp, f->fs, nullptr)));
      continue;
    }
    kernel_yield();
  }
}

PURE_NO_TSAN void Fibers::enter(int index) {
  Fiber& me = *fibers_[static_cast<std::size_t>(index)];
  me.fs = thread_pointer();
  if (host(index)) {
    Host& h = *hosts_[static_cast<std::size_t>(index)];
    pthread_sigmask(SIG_SETMASK, nullptr, &h.signals);
    me.host = &h;
    // Relaxed: no host takes a host's own rank before it is saved (kSaved,
    // released by arrived); this only leaves kStarting.
    store(me.state, static_cast<int>(kRunning), __ATOMIC_RELAXED);
    return;
  }
#ifdef PURE_FIBERS_X86_64
  void* frame = small_context(me.sleep_stack, &pure_fiber_sleep, &me.parked, &me.final_sp);
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &me.signals);
  void* prev = pure_fiber_switch(&me.sp, frame, me.fs, nullptr);
  // Our first turn, on the host that took us.
  resumed(me, static_cast<Fiber*>(prev));
#endif
}

PURE_NO_TSAN bool Fibers::yield(int index, bool idle) {
  Fiber& me = *fibers_[static_cast<std::size_t>(index)];
  Host& h = *me.host;
  Fiber* next = pick(h, &me, idle);
  if (!next) return false;
  switch_to(me, &me.sp, *next, h);
  return true;
}

PURE_NO_TSAN void Fibers::leave(int index) {
  Fiber& me = *fibers_[static_cast<std::size_t>(index)];
  Host& h = *me.host;
  me.finished = true;
  if (Fiber* next = pick(h, &me, true)) {
    switch_to(me, &me.final_sp, *next, h);
  } else {
    // Nothing else to run here now: the host's idle loop, entered with
    // every signal blocked.
    store(h.switches, h.switches + 1, __ATOMIC_RELAXED);
    set_signal_mask(&g_every_signal);
    pure_fiber_switch(&me.final_sp, h.idle_sp, h.own->fs, &me);
  }
  // Back on our own kernel thread, every rank done: a host's from its idle
  // loop, any other's from pure_fiber_sleep.
  pthread_sigmask(SIG_SETMASK,
                  host(index) ? &hosts_[static_cast<std::size_t>(index)]->signals : &me.signals,
                  nullptr);
}

}  // namespace pure
