// Threads a rank starts share the rank's globals (job/rank_globals.h): a new
// thread inherits its creator's pure_rank_delta, and its locale when the
// rank chose one (setlocale is per rank, pure/compat.h).
//
// Part of Pure::main, so it lives in the executable, which every shared
// library's calls bind to first (Pure::main links with -rdynamic):
// pthread_create here is the one libgomp (OpenMP teams) and libstdc++
// (std::thread) call, and the program's own calls. C11's thrd_create calls
// glibc's pthread_create internally, not through the symbol, so it is
// defined here too. The real pthread_create is a sanitizer's wrapper when
// one is linked, else the next definition (RTLD_NEXT, glibc's). Clang links
// its sanitizer runtime into the executable, where its pthread_create is a
// weak alias this file's definition overrides; RTLD_NEXT would then skip the
// wrapper and the new thread would run without the sanitizer's thread state,
// so the wrapper is taken by its own name, __interceptor_pthread_create.
#include <dlfcn.h>
#include <locale.h>
#include <pthread.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include "pure/compat.h"

// Defined only when a sanitizer runtime is linked (null otherwise).
extern "C" int __interceptor_pthread_create(pthread_t*, const pthread_attr_t*,
                                            void* (*)(void*), void*) __attribute__((weak));

namespace {

using PthreadCreate = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
PthreadCreate g_real_pthread_create = nullptr;

// Looked up once; threads that race here store the same value. A builtin
// atomic rather than a function-local static, whose guard is libstdc++'s.
PthreadCreate real_pthread_create() {
  PthreadCreate real = __atomic_load_n(&g_real_pthread_create, __ATOMIC_RELAXED);
  if (!real) {
    real = __interceptor_pthread_create != nullptr
               ? &__interceptor_pthread_create
               : reinterpret_cast<PthreadCreate>(dlsym(RTLD_NEXT, "pthread_create"));
    __atomic_store_n(&g_real_pthread_create, real, __ATOMIC_RELAXED);
  }
  return real;
}

struct Start {
  void* (*routine)(void*);
  void* arg;
  long delta;
  locale_t locale;
};

void* start_in_rank(void* p) {
  const Start start = *static_cast<Start*>(p);
  std::free(p);
  pure_rank_delta = start.delta;
  if (start.locale != LC_GLOBAL_LOCALE) uselocale(start.locale);
  return start.routine(start.arg);
}

struct C11Start {
  int (*routine)(void*);
  void* arg;
};

void* start_c11(void* p) {
  const C11Start start = *static_cast<C11Start*>(p);
  std::free(p);
  // thrd_join reads the int back from the pointer, as glibc's own does.
  return reinterpret_cast<void*>(static_cast<std::intptr_t>(start.routine(start.arg)));
}

}  // namespace

extern "C" {

// Referenced by main_entry.cpp, so that linking Pure::main links this file.
extern const char pure_thread_start_wrappers = 1;

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*routine)(void*),
                   void* arg) noexcept {
  PthreadCreate real = real_pthread_create();
  if (!real) return EAGAIN;
  if (pure_rank_delta == 0) return real(thread, attr, routine, arg);  // no rank's thread
  auto* start = static_cast<Start*>(std::malloc(sizeof(Start)));
  if (!start) return EAGAIN;
  *start = Start{routine, arg, pure_rank_delta, uselocale(nullptr)};
  const int rc = real(thread, attr, start_in_rank, start);
  if (rc != 0) std::free(start);
  return rc;
}

// <threads.h>: thrd_t is pthread_t; thrd_success 0, thrd_error 2, thrd_nomem 3.
int thrd_create(pthread_t* thread, int (*routine)(void*), void* arg) {
  auto* start = static_cast<C11Start*>(std::malloc(sizeof(C11Start)));
  if (!start) return 3;
  *start = C11Start{routine, arg};
  const int rc = pthread_create(thread, nullptr, start_c11, start);
  if (rc == 0) return 0;
  std::free(start);
  return rc == EAGAIN ? 3 : 2;
}

}  // extern "C"
