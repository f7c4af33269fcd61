/* Pure's PGAS API: a symmetric heap, put/get, atomics, wait-until, active
 * messages and distributed locks, for codes written for OpenSHMEM or for
 * DiOMP-style PGAS OpenMP. Included by pure.h; see README, "One-sided
 * communication".
 *
 * Processing elements (PEs) are the ranks of PURE_COMM_WORLD. Every call
 * here is made by a rank thread between pure_init and pure_finalize; errors
 * go to PURE_COMM_WORLD's error handler (fatal by default) with a message
 * naming the rank, the call and the bad value.
 *
 * Symmetric heap. pure_sym_malloc is collective over PURE_COMM_WORLD: every
 * rank asks for the same size, in the same order, and gets an address in
 * its own part of the heap at the same offset as every other rank's. A
 * remote address is named by the local address of the same object: put to
 * `dest` at PE p writes p's copy of `dest`. Each rank's part of the heap is
 * PURE_SYM_HEAP bytes (default 64M), reserved, not committed: pages cost
 * memory only once touched.
 *
 * Completion. Within a process a put, get or atomic is a direct memory
 * operation on the target's copy and is complete when the call returns,
 * _nbi ones included; across processes it goes through an MPI window
 * underneath, and pure_quiet (or pure_barrier_all) completes it at the
 * target. pure_fence orders this rank's puts to each PE: a put issued after
 * it is not seen before one issued before it. Puts of 4 or 8 bytes to an
 * address aligned to their size are single stores, so a flag written by a
 * put and read by pure_wait_until is never seen torn, and what the putting
 * rank wrote before it (put, then fence or quiet, then the flag's put) is
 * visible once the flag is.
 *
 * Atomics are atomic against every other atomic on the same word, whichever
 * rank issues them, and not against plain puts to it.
 *
 * Active messages. A handler is registered by every rank, in the same order
 * (the ids then agree), before any rank sends to it: register, then a
 * barrier. pure_am_request copies the payload and returns at once; the
 * handler runs on the target rank at its next Pure call that waits or
 * polls (pure_am_poll polls explicitly), with the payload, its length and
 * who sent it. A handler may reply (pure_am_reply) to the requester, whose
 * reply handler then runs the same way at the requester; a reply cannot be
 * replied to. A handler registered with PURE_AM_ANY_THREAD may run on any
 * rank thread of the target's process that waits or polls, as soon as one
 * does: for handlers that touch only what they are given, or data
 * they protect themselves. pure_am_quiet returns once every request this
 * rank sent has been handled and every reply to them has run here.
 * Handlers must not wait (no blocking Pure call): they may put, get, use
 * atomics, reply and send requests.
 *
 * Locks. A pure_lock_t is a symmetric variable, zero before its first use
 * (a pure_sym_malloc'd one is set to zero by the program); the lock it
 * names is served by one home PE with active messages, DiOMP-style: FIFO
 * among waiters, and whatever a holder wrote is visible to the next holder.
 *
 * Across processes every call works the same: puts, gets and atomics go
 * through an MPI window underneath, active messages (and so locks) are MPI
 * messages to the target's process, taken by whichever of its ranks waits
 * or polls first. */
#ifndef PURE_PGAS_H
#define PURE_PGAS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- PEs and the symmetric heap ---- */
int pure_my_pe(void);
int pure_n_pes(void);
/* Collective over PURE_COMM_WORLD (a barrier at the end): the same `size`
 * on every rank. Returns NULL when the heap has no room left (on every
 * rank alike) and for size 0. Memory is aligned to 64 bytes. */
void* pure_sym_malloc(size_t size);
/* Collective: the same pointer (this rank's copy) on every rank. */
void pure_sym_free(void* ptr);
/* Whether `ptr` lies in this rank's part of the symmetric heap. */
int pure_sym_accessible(const void* ptr);
/* The address of `ptr`'s copy at `pe`, when that PE is in this process
 * (a plain pointer to its memory, as shmem_ptr gives), else NULL. */
void* pure_sym_ptr(const void* ptr, int pe);

/* ---- put and get: `dest` (put) or `source` (get) is symmetric ---- */
void pure_putmem(void* dest, const void* source, size_t bytes, int pe);
void pure_getmem(void* dest, const void* source, size_t bytes, int pe);
void pure_putmem_nbi(void* dest, const void* source, size_t bytes, int pe);
void pure_getmem_nbi(void* dest, const void* source, size_t bytes, int pe);
/* Strided: `nelems` elements of `elem_size` bytes; element i goes from
 * source + i * source_stride * elem_size to dest + i * dest_stride * elem_size
 * (strides in elements, as shmem_iput). */
void pure_iputmem(void* dest, const void* source, ptrdiff_t dest_stride, ptrdiff_t source_stride,
                  size_t elem_size, size_t nelems, int pe);
void pure_igetmem(void* dest, const void* source, ptrdiff_t dest_stride, ptrdiff_t source_stride,
                  size_t elem_size, size_t nelems, int pe);
/* One value: a single store or load when aligned (see the header). */
void pure_int32_p(int32_t* dest, int32_t value, int pe);
void pure_int64_p(int64_t* dest, int64_t value, int pe);
int32_t pure_int32_g(const int32_t* source, int pe);
int64_t pure_int64_g(const int64_t* source, int pe);

/* Completes every put, get and atomic this rank issued (at their targets). */
void pure_quiet(void);
/* Orders this rank's puts to each PE (see the header). */
void pure_fence(void);
/* pure_quiet, then a barrier of PURE_COMM_WORLD. */
void pure_barrier_all(void);

/* ---- atomics on symmetric 32- and 64-bit integers ---- */
#define PURE_PGAS_ATOMICS(T, N)                                              \
  T pure_##N##_atomic_fetch(const T* source, int pe);                        \
  void pure_##N##_atomic_set(T* dest, T value, int pe);                      \
  T pure_##N##_atomic_fetch_add(T* dest, T value, int pe);                   \
  void pure_##N##_atomic_add(T* dest, T value, int pe);                      \
  T pure_##N##_atomic_fetch_inc(T* dest, int pe);                            \
  void pure_##N##_atomic_inc(T* dest, int pe);                               \
  T pure_##N##_atomic_swap(T* dest, T value, int pe);                        \
  T pure_##N##_atomic_compare_swap(T* dest, T compare, T value, int pe);     \
  T pure_##N##_atomic_fetch_and(T* dest, T value, int pe);                   \
  T pure_##N##_atomic_fetch_or(T* dest, T value, int pe);                    \
  T pure_##N##_atomic_fetch_xor(T* dest, T value, int pe);
PURE_PGAS_ATOMICS(int32_t, int32)
PURE_PGAS_ATOMICS(int64_t, int64)
#undef PURE_PGAS_ATOMICS

/* ---- waiting on a symmetric variable of this rank ---- */
#define PURE_CMP_EQ 0
#define PURE_CMP_NE 1
#define PURE_CMP_GT 2
#define PURE_CMP_GE 3
#define PURE_CMP_LT 4
#define PURE_CMP_LE 5
/* Waits (in the wait loop: task chunks and active messages run meanwhile)
 * until `*ivar cmp value`. */
void pure_int32_wait_until(int32_t* ivar, int cmp, int32_t value);
void pure_int64_wait_until(int64_t* ivar, int cmp, int64_t value);
/* Whether `*ivar cmp value` holds now. */
int pure_int32_test(int32_t* ivar, int cmp, int32_t value);
int pure_int64_test(int64_t* ivar, int cmp, int64_t value);

/* ---- active messages ---- */
typedef struct pure_am_info {
  int source;   /* the PE that sent the message */
  int target;   /* the PE it was sent to (the rank the handler acts for) */
  int handler;  /* the id it was sent to */
  int is_reply; /* a reply (which cannot be replied to) */
  void* internal_;
} pure_am_info_t;
typedef void (*pure_am_handler_t)(const pure_am_info_t* info, void* payload, size_t bytes);

#define PURE_AM_DEFAULT 0
#define PURE_AM_ANY_THREAD 1 /* may run on any rank thread of the target's process */
#define PURE_AM_MAX_HANDLERS 256
#define PURE_AM_MAX_PAYLOAD (1 << 20)

/* Registers `handler` on this rank; `*id` is its id (the n-th registration
 * of a rank gets id n-1, so ids agree where every rank registers alike). */
int pure_am_register(pure_am_handler_t handler, int flags, int* id);
/* Runs handler `id` at `pe` with a copy of the payload. */
int pure_am_request(int pe, int id, const void* payload, size_t bytes);
/* From inside a handler: runs handler `id` at info->source with a copy of
 * the payload, as a reply (counted by the requester's pure_am_quiet). */
int pure_am_reply(const pure_am_info_t* info, int id, const void* payload, size_t bytes);
/* Runs the handlers waiting for this rank; how many ran. */
int pure_am_poll(void);
/* Returns once every request this rank sent was handled and every reply
 * to them ran here (see the header). */
int pure_am_quiet(void);

/* ---- distributed locks ---- */
typedef int64_t pure_lock_t;
void pure_set_lock(pure_lock_t* lock);
void pure_clear_lock(pure_lock_t* lock);
/* 0 when the lock was free and is now held, 1 when it is held elsewhere. */
int pure_test_lock(pure_lock_t* lock);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PURE_PGAS_H */
