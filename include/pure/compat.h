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
#endif

#endif /* PURE_COMPAT_H */
