// Flat API: the PGAS calls of pure/pgas.h -- the symmetric heap, put/get,
// atomics, wait-until, active messages and locks. The heap and its
// operations are onesided/sym_heap.h, active messages and the lock service
// onesided/active_messages.h; this file checks arguments and finds the
// calling rank's pieces.
#include <cstdint>
#include <cstring>
#include <set>

#include "api/call.h"
#include "api/windows.h"
#include "onesided/sym_heap.h"

using namespace pure;
using namespace pure::api;

namespace {

int pe_arg(Call& c, int pe) {
  const int n = c.rank.process().world_size();
  if (pe < 0 || pe >= n) fail(PURE_ERR_RANK, "invalid PE %d (the job has %d ranks)", pe, n);
  return pe;
}

onesided::SymHeap& heap_arg(Call& c) {
  onesided::SymHeap* heap = c.rank.onesided().heap();
  if (!heap)
    fail(PURE_ERR_ARG,
         "no symmetric heap yet: memory other ranks reach must come from pure_sym_malloc");
  return *heap;
}

// The heap, created by the first pure_sym_malloc (collective, as it is).
onesided::SymHeap& make_heap(Call& c) {
  onesided::Member& member = c.rank.onesided();
  if (onesided::SymHeap* heap = member.heap()) return *heap;
  const std::size_t bytes = c.rank.process().config().sym_heap;
  onesided::CreateArgs args;
  args.flavor = onesided::Flavor::allocate;
  args.size = static_cast<PURE_Aint>(bytes);
  args.disp_unit = 1;
  args.call = c.name;
  std::unique_ptr<onesided::Window> window = new_window(c, *c.rank.comm(PURE_COMM_WORLD), args);
  // Locks on the heap are served by active messages, also from other
  // processes.
  member.shared().activate_remote();
  // One passive epoch for the heap's whole life: every PGAS operation may
  // go to any PE at any time.
  window->lock_all(PURE_MODE_NOCHECK, c.name);
  member.set_heap(
      std::make_unique<onesided::SymHeap>(std::move(window), bytes, *c.rank.type(PURE_BYTE),
                                          *c.rank.type(PURE_INT32_T), *c.rank.type(PURE_INT64_T)));
  return *member.heap();
}

// Every rank passes the same value to a collective call (pure_sym_malloc's
// size, pure_sym_free's offset): the allreduce is also the call's barrier.
void agree(Call& c, long long value, const char* what) {
  long long in[2] = {value, -value};
  long long out[2] = {0, 0};
  pure_allreduce(in, out, 2, PURE_LONG_LONG, PURE_MAX, PURE_COMM_WORLD);
  if (out[0] != value || -out[1] != value)
    fail(PURE_ERR_ARG,
         "%s %lld here, but between %lld and %lld among the ranks: %s is collective "
         "and every rank passes the same",
         what, value, -out[1], out[0], c.name);
}

template <class T>
T atomic_call(const char* name, onesided::AtomicOp op, T* dest, T value, T compare, int pe) {
  T old = 0;
  call(name, [&](Call& c) {
    pe_arg(c, pe);
    old = heap_arg(c).atomic(op, dest, value, compare, pe, name);
  });
  return old;
}

bool compare(std::int64_t a, int cmp, std::int64_t b) {
  switch (cmp) {
    case PURE_CMP_EQ:
      return a == b;
    case PURE_CMP_NE:
      return a != b;
    case PURE_CMP_GT:
      return a > b;
    case PURE_CMP_GE:
      return a >= b;
    case PURE_CMP_LT:
      return a < b;
    case PURE_CMP_LE:
      return a <= b;
  }
  return false;
}

void cmp_arg(int cmp) {
  if (cmp < PURE_CMP_EQ || cmp > PURE_CMP_LE)
    fail(PURE_ERR_ARG, "invalid comparison %d (PURE_CMP_EQ .. PURE_CMP_LE)", cmp);
}

template <class T>
void wait_until(const char* name, T* ivar, int cmp, T value) {
  call(name, [&](Call& c) {
    cmp_arg(cmp);
    onesided::SymHeap& heap = heap_arg(c);
    heap.offset_of(ivar, sizeof(T), "ivar", name);
    // Puts from other processes arrive through MPI: poll it, never sleep long.
    WaitSite site{name, -1, -1, heap.spans_processes()};
    c.rank.wait_until([&] { return compare(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, value); },
                      site);
  });
}

template <class T>
int test(const char* name, T* ivar, int cmp, T value) {
  int yes = 0;
  call(name, [&](Call& c) {
    cmp_arg(cmp);
    heap_arg(c).offset_of(ivar, sizeof(T), "ivar", name);
    yes = compare(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, value) ? 1 : 0;
    if (!yes) {
      c.rank.onesided().run_messages();
      c.rank.poll_missed();
    }
  });
  return yes;
}

void payload_arg(const void* payload, std::size_t bytes) {
  if (bytes > PURE_AM_MAX_PAYLOAD)
    fail(PURE_ERR_SIZE, "payload of %zu bytes (at most PURE_AM_MAX_PAYLOAD, %d)", bytes,
         PURE_AM_MAX_PAYLOAD);
  if (bytes > 0 && !payload) fail(PURE_ERR_BUFFER, "null payload of %zu bytes", bytes);
}

void handler_arg(Call& c, int id) {
  const int n = c.rank.onesided().mailbox().handlers();
  if (id < 0 || id >= n)
    fail(PURE_ERR_ARG, "invalid handler id %d (this rank registered %d)", id, n);
}

// Waits for what this rank's messages are counted for (pure_am_quiet).
void am_quiet(Call& c) {
  onesided::Mailbox& box = c.rank.onesided().mailbox();
  if (box.in_handler)
    fail(PURE_ERR_OTHER, "called inside an active-message handler, which must not wait");
  c.rank.wait_until([&] { return box.pending().load(std::memory_order_acquire) == 0; },
                    WaitSite{c.name, -1, -1});
}

// The home PE of the lock at `lock` and its offset: locks spread over the PEs.
struct LockRef {
  int home;
  std::int64_t offset;
};
LockRef lock_arg(Call& c, pure_lock_t* lock) {
  onesided::SymHeap& heap = heap_arg(c);
  const std::int64_t offset = heap.offset_of(lock, sizeof *lock, "lock", c.name);
  const int n = c.rank.process().world_size();
  return {static_cast<int>((offset / static_cast<std::int64_t>(sizeof *lock)) % n), offset};
}

// Sends lock request `kind` to the lock's home and waits for the answer.
int lock_request(Call& c, const LockRef& lock, int kind) {
  onesided::Member& me = c.rank.onesided();
  onesided::Mailbox& box = me.mailbox();
  if (box.in_handler)
    fail(PURE_ERR_OTHER, "called inside an active-message handler, which must not wait");
  box.lock_answer().store(-1, std::memory_order_relaxed);
  me.send_message(lock.home, kind, &lock.offset, sizeof lock.offset, false);
  c.rank.wait_until([&] { return box.lock_answer().load(std::memory_order_acquire) >= 0; },
                    WaitSite{c.name, lock.home, -1});
  return box.lock_answer().load(std::memory_order_relaxed);
}

}  // namespace

extern "C" {

int pure_my_pe(void) {
  int pe = -1;
  call("pure_my_pe", [&](Call& c) { pe = c.rank.world(); });
  return pe;
}

int pure_n_pes(void) {
  int n = 0;
  call("pure_n_pes", [&](Call& c) { n = c.rank.process().world_size(); });
  return n;
}

void* pure_sym_malloc(size_t size) {
  void* result = nullptr;
  collective("pure_sym_malloc", [&](Call& c) {
    agree(c, static_cast<long long>(size), "size");
    if (size == 0) return;
    onesided::SymHeap& heap = make_heap(c);
    // The same sequence of calls on every rank: the same offset everywhere.
    const std::int64_t offset = heap.allocator().allocate(size);
    if (offset >= 0) result = heap.base() + offset;
  });
  return result;
}

void pure_sym_free(void* ptr) {
  collective("pure_sym_free", [&](Call& c) {
    long long offset = -1;
    if (ptr) offset = heap_arg(c).offset_of(ptr, 1, "pointer", "pure_sym_free");
    agree(c, offset, "offset in the heap");
    if (!ptr) return;
    if (!heap_arg(c).allocator().release(offset))
      fail(PURE_ERR_ARG, "%p was not returned by pure_sym_malloc, or was freed already", ptr);
  });
}

int pure_sym_accessible(const void* ptr) {
  int yes = 0;
  call("pure_sym_accessible", [&](Call& c) {
    onesided::SymHeap* heap = c.rank.onesided().heap();
    yes = heap && heap->contains(ptr) ? 1 : 0;
  });
  return yes;
}

void* pure_sym_ptr(const void* ptr, int pe) {
  void* at = nullptr;
  call("pure_sym_ptr", [&](Call& c) {
    pe_arg(c, pe);
    onesided::SymHeap& heap = heap_arg(c);
    const std::int64_t offset = heap.offset_of(ptr, 1, "pointer", "pure_sym_ptr");
    if (char* part = heap.part_of(pe)) at = part + offset;
  });
  return at;
}

void pure_putmem(void* dest, const void* source, size_t bytes, int pe) {
  call("pure_putmem",
       [&](Call& c) { heap_arg(c).put(dest, source, bytes, pe_arg(c, pe), false, "pure_putmem"); });
}

void pure_getmem(void* dest, const void* source, size_t bytes, int pe) {
  call("pure_getmem",
       [&](Call& c) { heap_arg(c).get(dest, source, bytes, pe_arg(c, pe), false, "pure_getmem"); });
}

void pure_putmem_nbi(void* dest, const void* source, size_t bytes, int pe) {
  call("pure_putmem_nbi", [&](Call& c) {
    heap_arg(c).put(dest, source, bytes, pe_arg(c, pe), true, "pure_putmem_nbi");
  });
}

void pure_getmem_nbi(void* dest, const void* source, size_t bytes, int pe) {
  call("pure_getmem_nbi", [&](Call& c) {
    heap_arg(c).get(dest, source, bytes, pe_arg(c, pe), true, "pure_getmem_nbi");
  });
}

void pure_iputmem(void* dest, const void* source, ptrdiff_t dest_stride, ptrdiff_t source_stride,
                  size_t elem_size, size_t nelems, int pe) {
  call("pure_iputmem", [&](Call& c) {
    heap_arg(c).strided(true, dest, source, dest_stride, source_stride, elem_size, nelems,
                            pe_arg(c, pe), "pure_iputmem");
  });
}

void pure_igetmem(void* dest, const void* source, ptrdiff_t dest_stride, ptrdiff_t source_stride,
                  size_t elem_size, size_t nelems, int pe) {
  call("pure_igetmem", [&](Call& c) {
    heap_arg(c).strided(false, dest, source, dest_stride, source_stride, elem_size, nelems,
                            pe_arg(c, pe), "pure_igetmem");
  });
}

void pure_int32_p(int32_t* dest, int32_t value, int pe) {
  call("pure_int32_p", [&](Call& c) {
    heap_arg(c).put(dest, &value, sizeof value, pe_arg(c, pe), false, "pure_int32_p");
  });
}

void pure_int64_p(int64_t* dest, int64_t value, int pe) {
  call("pure_int64_p", [&](Call& c) {
    heap_arg(c).put(dest, &value, sizeof value, pe_arg(c, pe), false, "pure_int64_p");
  });
}

int32_t pure_int32_g(const int32_t* source, int pe) {
  int32_t v = 0;
  call("pure_int32_g", [&](Call& c) {
    heap_arg(c).get(&v, source, sizeof v, pe_arg(c, pe), false, "pure_int32_g");
  });
  return v;
}

int64_t pure_int64_g(const int64_t* source, int pe) {
  int64_t v = 0;
  call("pure_int64_g", [&](Call& c) {
    heap_arg(c).get(&v, source, sizeof v, pe_arg(c, pe), false, "pure_int64_g");
  });
  return v;
}

void pure_quiet(void) {
  call("pure_quiet", [&](Call& c) {
    if (onesided::SymHeap* heap = c.rank.onesided().heap()) heap->quiet("pure_quiet");
  });
}

void pure_fence(void) {
  call("pure_fence", [&](Call& c) {
    if (onesided::SymHeap* heap = c.rank.onesided().heap()) heap->fence("pure_fence");
  });
}

void pure_barrier_all(void) {
  collective("pure_barrier_all", [&](Call& c) {
    if (onesided::SymHeap* heap = c.rank.onesided().heap()) heap->quiet("pure_barrier_all");
    pure_barrier(PURE_COMM_WORLD);
  });
}

#define PURE_PGAS_ATOMICS(T, N)                                                                    \
  T pure_##N##_atomic_fetch(const T* source, int pe) {                                             \
    return atomic_call<T>("pure_" #N "_atomic_fetch", onesided::AtomicOp::fetch,                   \
                          const_cast<T*>(source), 0, 0, pe);                                       \
  }                                                                                                \
  void pure_##N##_atomic_set(T* dest, T value, int pe) {                                           \
    atomic_call<T>("pure_" #N "_atomic_set", onesided::AtomicOp::set, dest, value, 0, pe);         \
  }                                                                                                \
  T pure_##N##_atomic_fetch_add(T* dest, T value, int pe) {                                        \
    return atomic_call<T>("pure_" #N "_atomic_fetch_add", onesided::AtomicOp::add, dest, value, 0, \
                          pe);                                                                     \
  }                                                                                                \
  void pure_##N##_atomic_add(T* dest, T value, int pe) {                                           \
    atomic_call<T>("pure_" #N "_atomic_add", onesided::AtomicOp::add, dest, value, 0, pe);         \
  }                                                                                                \
  T pure_##N##_atomic_fetch_inc(T* dest, int pe) {                                                 \
    return atomic_call<T>("pure_" #N "_atomic_fetch_inc", onesided::AtomicOp::add, dest, 1, 0,     \
                          pe);                                                                     \
  }                                                                                                \
  void pure_##N##_atomic_inc(T* dest, int pe) {                                                    \
    atomic_call<T>("pure_" #N "_atomic_inc", onesided::AtomicOp::add, dest, 1, 0, pe);             \
  }                                                                                                \
  T pure_##N##_atomic_swap(T* dest, T value, int pe) {                                             \
    return atomic_call<T>("pure_" #N "_atomic_swap", onesided::AtomicOp::swap, dest, value, 0,     \
                          pe);                                                                     \
  }                                                                                                \
  T pure_##N##_atomic_compare_swap(T* dest, T compare, T value, int pe) {                          \
    return atomic_call<T>("pure_" #N "_atomic_compare_swap", onesided::AtomicOp::compare_swap,     \
                          dest, value, compare, pe);                                               \
  }                                                                                                \
  T pure_##N##_atomic_fetch_and(T* dest, T value, int pe) {                                        \
    return atomic_call<T>("pure_" #N "_atomic_fetch_and", onesided::AtomicOp::band, dest, value,   \
                          0, pe);                                                                  \
  }                                                                                                \
  T pure_##N##_atomic_fetch_or(T* dest, T value, int pe) {                                         \
    return atomic_call<T>("pure_" #N "_atomic_fetch_or", onesided::AtomicOp::bor, dest, value, 0,  \
                          pe);                                                                     \
  }                                                                                                \
  T pure_##N##_atomic_fetch_xor(T* dest, T value, int pe) {                                        \
    return atomic_call<T>("pure_" #N "_atomic_fetch_xor", onesided::AtomicOp::bxor, dest, value,   \
                          0, pe);                                                                  \
  }
PURE_PGAS_ATOMICS(int32_t, int32)
PURE_PGAS_ATOMICS(int64_t, int64)
#undef PURE_PGAS_ATOMICS

void pure_int32_wait_until(int32_t* ivar, int cmp, int32_t value) {
  wait_until("pure_int32_wait_until", ivar, cmp, value);
}

void pure_int64_wait_until(int64_t* ivar, int cmp, int64_t value) {
  wait_until("pure_int64_wait_until", ivar, cmp, value);
}

int pure_int32_test(int32_t* ivar, int cmp, int32_t value) {
  return test("pure_int32_test", ivar, cmp, value);
}

int pure_int64_test(int64_t* ivar, int cmp, int64_t value) {
  return test("pure_int64_test", ivar, cmp, value);
}

// ---- active messages ----

int pure_am_register(pure_am_handler_t handler, int flags, int* id) {
  return call("pure_am_register", [&](Call& c) {
    if (!handler) fail(PURE_ERR_ARG, "null handler");
    if (!id) fail(PURE_ERR_ARG, "null id pointer");
    if (flags & ~PURE_AM_ANY_THREAD)
      fail(PURE_ERR_ARG, "invalid flags %#x (PURE_AM_DEFAULT or PURE_AM_ANY_THREAD)", flags);
    const int got = c.rank.onesided().mailbox().add_handler(handler, flags);
    // Messages from other processes may come for it from now on.
    c.rank.onesided().shared().activate_remote();
    if (got < 0)
      fail(PURE_ERR_ARG, "more than PURE_AM_MAX_HANDLERS (%d) handlers", PURE_AM_MAX_HANDLERS);
    *id = got;
  });
}

int pure_am_request(int pe, int id, const void* payload, size_t bytes) {
  return call("pure_am_request", [&](Call& c) {
    pe_arg(c, pe);
    handler_arg(c, id);
    payload_arg(payload, bytes);
    onesided::Member& me = c.rank.onesided();
    me.send_message(pe, id, payload, bytes, false);
  });
}

int pure_am_reply(const pure_am_info_t* info, int id, const void* payload, size_t bytes) {
  return call("pure_am_reply", [&](Call& c) {
    if (!info || !info->internal_)
      fail(PURE_ERR_ARG, "no message: pure_am_reply takes the info its handler was given");
    if (info->is_reply) fail(PURE_ERR_ARG, "a reply cannot be replied to");
    handler_arg(c, id);
    payload_arg(payload, bytes);
    // Sent as the rank the handler ran for (an any-thread handler may run
    // on another rank's thread).
    c.rank.onesided()
        .shared()
        .member_of_world(info->target)
        .send_message(info->source, id, payload, bytes, true);
  });
}

int pure_am_poll(void) {
  int ran = 0;
  call("pure_am_poll", [&](Call& c) {
    ran = c.rank.onesided().run_messages();
    if (ran == 0) c.rank.poll_missed();
  });
  return ran;
}

int pure_am_quiet(void) {
  return call("pure_am_quiet", [&](Call& c) { am_quiet(c); });
}

// ---- locks ----

void pure_set_lock(pure_lock_t* lock) {
  call("pure_set_lock", [&](Call& c) {
    const LockRef ref = lock_arg(c, lock);
    std::set<std::int64_t>& held = c.rank.onesided().mailbox().held_locks();
    if (held.count(ref.offset))
      fail(PURE_ERR_ARG, "lock %p is held by this rank already (locks are not recursive)",
           static_cast<void*>(lock));
    lock_request(c, ref, onesided::kLockAcquire);
    held.insert(ref.offset);
  });
}

int pure_test_lock(pure_lock_t* lock) {
  int busy = 1;
  call("pure_test_lock", [&](Call& c) {
    const LockRef ref = lock_arg(c, lock);
    std::set<std::int64_t>& held = c.rank.onesided().mailbox().held_locks();
    if (held.count(ref.offset))
      fail(PURE_ERR_ARG, "lock %p is held by this rank already (locks are not recursive)",
           static_cast<void*>(lock));
    busy = lock_request(c, ref, onesided::kLockTry);
    if (busy == 0) held.insert(ref.offset);
  });
  return busy;
}

void pure_clear_lock(pure_lock_t* lock) {
  call("pure_clear_lock", [&](Call& c) {
    const LockRef ref = lock_arg(c, lock);
    onesided::Member& me = c.rank.onesided();
    if (!me.mailbox().held_locks().erase(ref.offset))
      fail(PURE_ERR_ARG, "lock %p is not held by this rank", static_cast<void*>(lock));
    // What the holder wrote is complete before the next holder gets the lock.
    heap_arg(c).quiet("pure_clear_lock");
    me.send_message(ref.home, onesided::kLockRelease, &ref.offset, sizeof ref.offset, false);
  });
}

}  // extern "C"

namespace pure::api {

void finish_pgas(Call& c) { am_quiet(c); }

}  // namespace pure::api
