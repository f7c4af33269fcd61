/* Pure's stand-ins for what a process has once and each rank must have for
 * itself when ranks are threads of one process: the program's globals
 * (PURE_RANK), and the C library's hidden state -- exit and atexit, the
 * random generators, getopt's cursor, the buffers that functions return,
 * the environment, the working directory, stdout and stderr. The
 * translator (tools/mpi2pure) rewrites the program's uses into these;
 * hand-ported code may call them directly. State is per rank and shared by
 * the threads a rank starts, as a process's is by its threads; on a thread
 * that belongs to no rank these behave as the C library does.
 *
 * The C part includes no system header on purpose: the translator puts it
 * at the very top of a file, before the file's own feature-test macros
 * (_GNU_SOURCE, _POSIX_C_SOURCE), which must still come before the first
 * system header. Hence time pointers are taken as `const void*` (a time_t*)
 * and glibc's struct tags name its types (struct _IO_FILE is FILE).
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

/* ---- ending: exit, abort, atexit ----
 * exit(): status 0 ends only the calling rank, exactly as returning 0 from
 * pure_main would (pure_finalize must have been called, as MPI requires);
 * any other status ends the whole job with that status, like pure_abort.
 * Called outside a rank thread it is the C library's exit. */
void pure_exit(int status) __attribute__((noreturn));
/* abort(): ends the whole job, as a process dying of SIGABRT ends an MPI
 * job; the job's exit status is 134 (128 + SIGABRT). */
void pure_abort_job(void) __attribute__((noreturn));
/* atexit/on_exit: the handler runs when the calling thread's rank ends
 * (returns from main or calls exit(0)), newest first, together with the
 * destructors of its C++ globals, as in a process. */
int pure_atexit(void (*handler)(void));
int pure_on_exit(void (*handler)(int, void *), void *arg);

/* ---- random numbers: glibc's generators with per-rank state, so each
 * rank draws exactly the sequence a separate process would ---- */
int pure_rand(void);
void pure_srand(unsigned int seed);
long pure_random(void);
void pure_srandom(unsigned int seed);
char *pure_initstate(unsigned int seed, char *state, __SIZE_TYPE__ size);
char *pure_setstate(char *state);
double pure_drand48(void);
double pure_erand48(unsigned short xsubi[3]);
long pure_lrand48(void);
long pure_nrand48(unsigned short xsubi[3]);
long pure_mrand48(void);
long pure_jrand48(unsigned short xsubi[3]);
void pure_srand48(long seed);
unsigned short *pure_seed48(unsigned short seed16v[3]);
void pure_lcong48(unsigned short param[7]);
/* lgamma and friends set signgam: the rank's, which *pure_signgam() is. */
double pure_lgamma(double x);
float pure_lgammaf(float x);
long double pure_lgammal(long double x);
int *pure_signgam(void);

/* ---- getopt: glibc's behaviour (argument permutation, POSIXLY_CORRECT,
 * '+'/'-'/':' prefixes, optional arguments, abbreviated and ambiguous long
 * options, its messages on the rank's stderr) with optind, optarg, opterr,
 * optopt and the scan's position per rank ---- */
struct option;
int pure_getopt(int argc, char *const *argv, const char *optstring);
/* getopt as <unistd.h> declares it for strict POSIX programs: no
 * permutation. */
int pure_getopt_posix(int argc, char *const *argv, const char *optstring);
int pure_getopt_long(int argc, char *const *argv, const char *optstring,
                     const struct option *longopts, int *longindex);
int pure_getopt_long_only(int argc, char *const *argv, const char *optstring,
                          const struct option *longopts, int *longindex);
int *pure_optind(void);
char **pure_optarg(void);
int *pure_opterr(void);
int *pure_optopt(void);

/* ---- results in static buffers: one buffer per rank, valid until the
 * rank's next call of the same function ---- */
char *pure_strtok(char *str, const char *delim);
struct tm *pure_localtime(const void *timer);
struct tm *pure_gmtime(const void *timer);
char *pure_ctime(const void *timer);
char *pure_asctime(const struct tm *tm);
char *pure_strerror(int errnum);
struct passwd;
struct group;
struct hostent;
struct in_addr;
struct lconv;
struct entry;
struct passwd *pure_getpwnam(const char *name);
struct passwd *pure_getpwuid(unsigned int uid);
struct group *pure_getgrnam(const char *name);
struct group *pure_getgrgid(unsigned int gid);
struct hostent *pure_gethostbyname(const char *name);
struct hostent *pure_gethostbyaddr(const void *addr, unsigned int len, int type);
char *pure_inet_ntoa(struct in_addr in);
char *pure_ecvt(double number, int ndigits, int *decpt, int *sign);
char *pure_fcvt(double number, int ndigits, int *decpt, int *sign);
char *pure_l64a(long n);
int pure_hcreate(__SIZE_TYPE__ nel);
struct entry *pure_hsearch(struct entry item, int action);
void pure_hdestroy(void);
char *pure_tmpnam(char *s);
char *pure_ctermid(char *s);
char *pure_ttyname(int fd);
char *pure_getlogin(void);
char *pure_ptsname(int fd);
int pure_mblen(const char *s, __SIZE_TYPE__ n);
#ifdef __cplusplus
int pure_mbtowc(wchar_t *pwc, const char *s, __SIZE_TYPE__ n);
int pure_wctomb(char *s, wchar_t wc);
#else
int pure_mbtowc(__WCHAR_TYPE__ *pwc, const char *s, __SIZE_TYPE__ n);
int pure_wctomb(char *s, __WCHAR_TYPE__ wc);
#endif
/* setlocale: the rank's locale (uselocale), which the threads it starts
 * afterwards inherit; localeconv describes it. */
char *pure_setlocale(int category, const char *locale);
struct lconv *pure_localeconv(void);

/* ---- the environment: each rank starts with the process's and changes
 * only its own ---- */
char *pure_getenv(const char *name);
char *pure_secure_getenv(const char *name);
int pure_setenv(const char *name, const char *value, int overwrite);
int pure_unsetenv(const char *name);
int pure_putenv(char *string);
int pure_clearenv(void);
/* environ: the rank's environment as an array (*pure_environ()). */
char ***pure_environ(void);

/* ---- the working directory: chdir changes the rank's, which relative
 * paths given to these functions start from ---- */
struct _IO_FILE;
struct __dirstream;
struct stat;
int pure_chdir(const char *path);
int pure_fchdir(int fd);
char *pure_getcwd(char *buf, __SIZE_TYPE__ size);
char *pure_get_current_dir_name(void);
struct _IO_FILE *pure_fopen(const char *path, const char *mode);
struct _IO_FILE *pure_freopen(const char *path, const char *mode, struct _IO_FILE *stream);
int pure_open(const char *path, int flags, ...);
/* A library path with a slash, relative, opens from the rank's directory;
 * a bare name is searched for as dlopen does. */
void *pure_dlopen(const char *file, int mode);
int pure_creat(const char *path, unsigned int mode);
struct __dirstream *pure_opendir(const char *path);
int pure_stat(const char *path, struct stat *buf);
int pure_lstat(const char *path, struct stat *buf);
int pure_access(const char *path, int mode);
int pure_mkdir(const char *path, unsigned int mode);
int pure_rmdir(const char *path);
int pure_unlink(const char *path);
int pure_remove(const char *path);
int pure_rename(const char *from, const char *to);

/* ---- output: each rank's stdout and stderr pass whole lines to the
 * process's, so lines of different ranks never mix; fflush, exit and the
 * rank's end pass on a partial line too ---- */
struct _IO_FILE *pure_stdout(void);
struct _IO_FILE *pure_stderr(void);
int pure_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
int pure_vprintf(const char *format, __builtin_va_list args);
int pure_puts(const char *s);
int pure_putchar(int c);
void pure_perror(const char *s);
int pure_fflush(struct _IO_FILE *stream);
int pure_setvbuf(struct _IO_FILE *stream, char *buf, int mode, __SIZE_TYPE__ size);
void pure_setbuf(struct _IO_FILE *stream, char *buf);
void pure_setlinebuf(struct _IO_FILE *stream);
int pure_fclose(struct _IO_FILE *stream);
int pure_fileno(struct _IO_FILE *stream);

#ifdef __cplusplus
} /* extern "C" */

/* C++: the rank's standard streams, and the globals whose bytes cannot
 * simply be copied for each rank: objects of class type with a constructor
 * or destructor that matters (std::vector, std::string, std::map, ...), and
 * function-local statics initialised at run time. The translator gives them
 * these types; PURE_RANK_OBJECT(x) is the object. <iosfwd> and <new> only:
 * g++ defines _GNU_SOURCE before any header, so the reason the C part
 * includes nothing does not apply. */
#include <iosfwd>
#include <new>

namespace pure {

/* std::cout, std::cerr, std::clog of the calling thread's rank: over its
 * stdout and stderr. */
std::ostream &rank_cout();
std::ostream &rank_cerr();
std::ostream &rank_clog();

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
