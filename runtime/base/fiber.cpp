#include "base/fiber.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__) && defined(__linux__)
#include <linux/futex.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>
#define PURE_FIBERS_X86_64 1
#endif

namespace pure {

#ifdef PURE_FIBERS_X86_64

// pure_fiber_switch(save, sp, fs): saves the callee-saved registers, MXCSR
// and the x87 control word (the System V ABI's callee-saved state) on the
// current stack, stores the stack pointer in *save, then switches to the
// stack `sp` (saved the same way), makes `fs` the thread pointer and restores
// what was saved there. It returns into whoever saved `sp`.
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
  wrfsbase %rdx
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
  jmp pure_fiber_restore
  .size pure_fiber_sleep, .-pure_fiber_sleep
)");

extern "C" void pure_fiber_switch(void** save, void* sp, void* fs);
extern "C" void pure_fiber_sleep();

static_assert(FUTEX_WAIT_PRIVATE == 128, "pure_fiber_sleep hard-codes FUTEX_WAIT_PRIVATE");
static_assert(SYS_futex == 202, "pure_fiber_sleep hard-codes SYS_futex");

namespace {
void* thread_pointer() {
  void* fs;
  asm volatile("rdfsbase %0" : "=r"(fs));
  return fs;
}
void futex_wake(std::atomic<std::uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), FUTEX_WAKE_PRIVATE, 1, nullptr,
          nullptr, 0);
}
}  // namespace

bool Fibers::supported() {
#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif
  return (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
}

#else  // not x86-64 Linux: never constructed (see Fibers::Fibers)

namespace {
[[noreturn]] void unsupported() { std::abort(); }
void pure_fiber_switch(void**, void*, void*) { unsupported(); }
void* thread_pointer() { unsupported(); }
void futex_wake(std::atomic<std::uint32_t>*) { unsupported(); }
}  // namespace
bool Fibers::supported() { return false; }

#endif

struct alignas(64) Fibers::Fiber {
  int index = 0;
  int group = 0;
  void* sp = nullptr;        // the saved context while another fiber runs
  void* final_sp = nullptr;  // the context saved when its rank was done
  void* fs = nullptr;        // its thread's thread pointer (FS base)
  bool finished = false;     // read and written by the group's running fiber only
  // 1 once its kernel thread sleeps on its own stack (stored by
  // pure_fiber_sleep); the host stores 2 to send it back to its rank.
  std::atomic<std::uint32_t> parked{0};
  // What ThreadSanitizer sees of the hand-overs, which happen in assembly:
  // a release by the fiber that switches, an acquire by the one that runs.
  std::atomic<std::uint32_t> turn{0};
  std::unique_ptr<char[]> sleep_stack;
  // Its kernel thread's signal mask before it went to sleep with every
  // signal blocked: a handler run there would use the rank's thread-locals.
  sigset_t signals;
};

struct Fibers::Group {
  std::vector<Fiber*> members;  // members[0] hosts
  int unfinished = 0;           // read and written by the running fiber only
};

namespace {
constexpr std::size_t kSleepStackBytes = 16 * 1024;
}

Fibers::Fibers(int ranks, int groups) {
  if (!supported())
    throw std::logic_error(
        "pure: rank fibers need FSGSBASE (x86-64, Linux >= 5.9); ask Fibers::supported() first");
  for (int g = 0; g < groups; ++g) groups_.push_back(std::make_unique<Group>());
  for (int i = 0; i < ranks; ++i) {
    fibers_.push_back(std::make_unique<Fiber>());
    Fiber& f = *fibers_.back();
    f.index = i;
    f.group = group_of(i, groups);
    groups_[static_cast<std::size_t>(f.group)]->members.push_back(&f);
  }
  for (auto& g : groups_) g->unfinished = static_cast<int>(g->members.size());
}

Fibers::~Fibers() = default;

Fibers::Fiber* Fibers::next_unfinished(Fiber& from) const {
  const std::vector<Fiber*>& m = groups_[static_cast<std::size_t>(from.group)]->members;
  const std::size_t n = m.size();
  std::size_t at = static_cast<std::size_t>(from.index / groups());  // position in the group
  for (std::size_t k = 1; k < n; ++k) {
    Fiber* f = m[(at + k) % n];
    if (!f->finished) return f;
  }
  return nullptr;
}

void Fibers::switch_to(Fiber& from, void** save, Fiber& to, void* sp) {
  to.turn.store(to.turn.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  pure_fiber_switch(save, sp, to.fs);
  // Our turn again (on the host, or on our own thread after leave()).
  (void)from.turn.load(std::memory_order_acquire);
}

void Fibers::enter(int index) {
  Fiber& me = *fibers_[static_cast<std::size_t>(index)];
  me.fs = thread_pointer();
  Group& g = *groups_[static_cast<std::size_t>(me.group)];
  if (g.members[0] == &me) {
    // The host: every member's context must be saved before we switch to it.
    for (Fiber* m : g.members) {
      if (m == &me) continue;
      // Acquire, pairing with pure_fiber_sleep's store of 1 (a plain x86
      // store: a release), which follows its save of m->sp and its move off
      // the rank's stack.
      while (m->parked.load(std::memory_order_acquire) != 1) sched_yield();
      // Pairs with m's release store of turn before its hand-over: what
      // ThreadSanitizer sees of the above.
      (void)m->turn.load(std::memory_order_acquire);
    }
    return;
  }
#ifdef PURE_FIBERS_X86_64
  // Build the sleep stack's first context so that pure_fiber_switch's
  // restore "returns" into pure_fiber_sleep with r12 and r13 set. From the
  // lowest address: MXCSR and x87 control word, r15, r14, r13, r12, rbx, rbp,
  // return address.
  me.sleep_stack.reset(new char[kSleepStackBytes]);
  auto top = reinterpret_cast<std::uintptr_t>(me.sleep_stack.get() + kSleepStackBytes) &
             ~std::uintptr_t{15};
  auto* frame = reinterpret_cast<std::uint64_t*>(top) - 8;
  std::uint32_t fpu[2] = {0x1F80, 0x037F};  // MXCSR and x87 control word at their defaults
  std::memcpy(&frame[0], fpu, sizeof fpu);
  frame[1] = 0;                                              // r15
  frame[2] = 0;                                              // r14
  frame[3] = reinterpret_cast<std::uint64_t>(&me.final_sp);  // r13
  frame[4] = reinterpret_cast<std::uint64_t>(&me.parked);    // r12
  frame[5] = 0;                                              // rbx
  frame[6] = 0;                                              // rbp
  frame[7] = reinterpret_cast<std::uint64_t>(&pure_fiber_sleep);
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &me.signals);
  // Everything this thread did so far happens-before the host runs us.
  me.turn.store(1, std::memory_order_release);
  pure_fiber_switch(&me.sp, frame, me.fs);
  // Our first turn, on the host.
  (void)me.turn.load(std::memory_order_acquire);
#endif
}

bool Fibers::yield(int index) {
  Fiber& me = *fibers_[static_cast<std::size_t>(index)];
  Fiber* next = next_unfinished(me);
  if (!next) return false;
  switch_to(me, &me.sp, *next, next->sp);
  return true;
}

void Fibers::leave(int index) {
  Fiber& me = *fibers_[static_cast<std::size_t>(index)];
  Group& g = *groups_[static_cast<std::size_t>(me.group)];
  Fiber& host = *g.members[0];
  me.finished = true;
  --g.unfinished;
  if (Fiber* next = next_unfinished(me))
    switch_to(me, &me.final_sp, *next, next->sp);
  else if (&me != &host)
    switch_to(me, &me.final_sp, host, host.final_sp);  // the host ends last
  if (&me != &host) {
    // Back on our own kernel thread, sent here by the host below. Acquire,
    // pairing with its release store of 2: for ThreadSanitizer, which does
    // not see the assembly that brought us here.
    (void)me.parked.load(std::memory_order_acquire);
    pthread_sigmask(SIG_SETMASK, &me.signals, nullptr);
    return;
  }
  // The host, with every rank of the group done: each member's kernel
  // thread resumes its rank's final context and ends as usual.
  for (Fiber* m : g.members) {
    if (m == &me) continue;
    // Release: m's final_sp (saved by the switch that left it) is visible
    // to pure_fiber_sleep once it sees 2.
    m->parked.store(2, std::memory_order_release);
    futex_wake(&m->parked);
  }
}

}  // namespace pure
