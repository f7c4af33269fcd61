/* Pure's stand-ins for C library calls whose meaning changes when ranks are
 * threads of one process. The translator (tools/mpi2pure) rewrites calls to
 * exit, abort, rand, strtok, localtime, ... into these; hand-ported code may
 * call them directly.
 *
 * This header includes no system header on purpose: the translator puts it
 * at the very top of a file, before the file's own feature-test macros
 * (_GNU_SOURCE, _POSIX_C_SOURCE), which must still come before the first
 * system header. Hence time pointers are taken as `const void*` (a time_t*).
 */
#ifndef PURE_COMPAT_H
#define PURE_COMPAT_H

#ifdef __cplusplus
extern "C" {
#endif

struct tm;

/* ---- globals per rank (runtime/job/rank_globals.h) ----
 *
 * Every rank has its own copy of the executable's writable segment (.data
 * and .bss: all of the program's globals), and every thread the rank starts
 * shares it. The translator rewrites each use of a mutable global x into
 * PURE_RANK(x): the same object in the calling thread's rank's copy.
 * pure_rank_delta is the distance to that copy, 0 on threads that belong to
 * no rank; an address outside the segment (a local, a library's object) is
 * left as it is, so PURE_RANK of anything is safe. */
extern __thread long pure_rank_delta;
/* The runtime gives ranks copies only in a program that links a file that
 * includes this header (every translated program). */
#ifdef __cplusplus
__attribute__((weak)) extern const char pure_rank_globals_linked = 1;
#else
__attribute__((weak)) const char pure_rank_globals_linked = 1;
#endif
extern unsigned long pure_rank_segment_start;
extern unsigned long pure_rank_segment_size;

static __inline__ __attribute__((always_inline)) void *pure_rank_address(const volatile void *p) {
  unsigned long a = (unsigned long)p;
  return (void *)(a - pure_rank_segment_start < pure_rank_segment_size
                      ? a + (unsigned long)pure_rank_delta
                      : a);
}

#ifdef __cplusplus
#define PURE_RANK(x) (*(__typeof__(__builtin_addressof(x)))pure_rank_address(__builtin_addressof(x)))
/* A global of class type that each rank constructs (pure::RankGlobal,
 * pure::RankLocal below): the object itself. */
#define PURE_RANK_OBJECT(x) PURE_RANK(x).value
#else
#define PURE_RANK(x) (*(__typeof__(&(x)))pure_rank_address(&(x)))
#endif

/* Registrations the translated program makes while the process starts,
 * before any rank exists:
 * - pure_rank_relocate: `object` holds addresses of globals (int *p = &x);
 *   in each rank's copy they are made to point into that copy.
 * - pure_rank_object: each rank constructs `object` in its copy when it
 *   starts (after zeroing its `size` bytes, as static storage is), in the
 *   order of registration, and destroys it when it ends (destroy may be
 *   null). */
void pure_rank_relocate(void *object, unsigned long size);
void pure_rank_object(void *object, unsigned long size, void (*construct)(void *),
                      void (*destroy)(void *));
/* Runs fn(arg) when the calling thread's rank ends, before the handlers
 * registered earlier (atexit and destructors share one order, as in a
 * process). -1 on a thread that belongs to no rank. */
int pure_rank_at_exit(void (*fn)(void *), void *arg);
/* Lets other threads run while one waits for another thread of its rank
 * (pure::RankLocal). */
void pure_rank_yield(void);

/* exit(): status 0 ends only the calling rank, exactly as returning 0 from
 * pure_main would (pure_finalize must have been called, as MPI requires);
 * any other status ends the whole job with that status, like pure_abort.
 * Called outside a rank thread it is the C library's exit. */
void pure_exit(int status) __attribute__((noreturn));
/* abort(): ends the whole job, as a process dying of SIGABRT ends an MPI
 * job; the job's exit status is 134 (128 + SIGABRT). */
void pure_abort_job(void) __attribute__((noreturn));

/* rand/srand/random/srandom with per-rank state: each rank sees exactly the
 * sequence glibc gives a separate process (seed 1 until seeded). */
int pure_rand(void);
void pure_srand(unsigned int seed);
long pure_random(void);
void pure_srandom(unsigned int seed);

/* Reentrant forms of calls that keep hidden static state, with that state
 * kept per rank: strtok_r with a per-rank save pointer; localtime_r,
 * gmtime_r, ctime_r, asctime_r and strerror_r into per-rank buffers, which
 * stay valid until the same rank's next call of the same function. */
char* pure_strtok(char* str, const char* delim);
struct tm* pure_localtime(const void* timer);
struct tm* pure_gmtime(const void* timer);
char* pure_ctime(const void* timer);
char* pure_asctime(const struct tm* tm);
char* pure_strerror(int errnum);

#ifdef __cplusplus
} /* extern "C" */

/* C++ globals whose bytes cannot simply be copied for each rank: objects of
 * class type with a constructor or destructor that matters (std::vector,
 * std::string, std::map, ...), and function-local statics initialised at
 * run time. The translator gives them these types; PURE_RANK_OBJECT(x) is
 * the object. <new> only: g++ defines _GNU_SOURCE before any header, so the
 * reason the C part includes nothing does not apply. */
#include <new>

namespace pure {

template <class T>
struct RankDestroy {
  static void destroy(T &object) { object.~T(); }
};
template <class T, decltype(sizeof 0) N>
struct RankDestroy<T[N]> {
  static void destroy(T (&array)[N]) {
    for (decltype(sizeof 0) i = N; i-- > 0;) RankDestroy<T>::destroy(array[i]);
  }
};

/* A global or static member: every rank constructs its own copy as it
 * starts, in the program's order of construction, and destroys it as it
 * ends. The copy in the segment itself is never constructed, so threads
 * that are no rank's cost nothing. */
template <class T>
union RankGlobal {
  using type = T;
  T value;
  explicit RankGlobal(void (*construct)(void *)) {
    pure_rank_object(this, sizeof(T), construct, __has_trivial_destructor(T) ? nullptr : &destroy);
  }
  ~RankGlobal() {}
  RankGlobal(const RankGlobal &) = delete;
  RankGlobal &operator=(const RankGlobal &) = delete;

 private:
  static void destroy(void *at) { RankDestroy<T>::destroy(static_cast<RankGlobal *>(at)->value); }
};

/* A function-local static initialised at run time: each rank (with the
 * threads it started) initialises its own the first time it passes the
 * declaration; it is destroyed when the rank ends. */
template <class T>
struct RankLocal {
  using type = T;
  union {
    char none;
    T value;
  };
  int state;  // 0 not constructed, 1 being constructed, 2 constructed

  constexpr RankLocal() noexcept : none(), state(0) {}
  ~RankLocal() {}
  RankLocal(const RankLocal &) = delete;
  RankLocal &operator=(const RankLocal &) = delete;

  template <class Construct>
  void once(Construct &&construct) {
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2) return;
    for (;;) {
      int expected = 0;
      if (__atomic_compare_exchange_n(&state, &expected, 1, false, __ATOMIC_ACQUIRE,
                                      __ATOMIC_ACQUIRE)) {
        break;
      }
      if (expected == 2) return;
      pure_rank_yield();  // another thread of the rank is constructing it
    }
    struct Reset {  // a throwing initialiser leaves it to the next pass
      int *state;
      bool done;
      ~Reset() {
        if (!done) __atomic_store_n(state, 0, __ATOMIC_RELEASE);
      }
    } reset{&state, false};
    __builtin_memset(static_cast<void *>(&value), 0, sizeof(T));
    construct(static_cast<void *>(&value));
    reset.done = true;
    if (!__has_trivial_destructor(T)) pure_rank_at_exit(&destroy, this);
    __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
  }

 private:
  static void destroy(void *at) {
    RankLocal *self = static_cast<RankLocal *>(at);
    RankDestroy<T>::destroy(self->value);
    __atomic_store_n(&self->state, 0, __ATOMIC_RELEASE);
  }
};

/* A global of a type whose bytes can be copied, initialised at run time
 * (int n = compute();): each rank runs the initialiser as it starts; the
 * copy in the segment is left zero, as before initialisation. */
template <class T>
T rank_init(T *object, void (*construct)(void *)) {
  pure_rank_object(object, sizeof(T), construct, nullptr);
  return *object;
}

}  // namespace pure
#endif

#endif /* PURE_COMPAT_H */
