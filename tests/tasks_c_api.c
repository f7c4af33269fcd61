/* Pure Tasks through the flat C API, compiled as C: a translated C program
 * uses tasks exactly like this. Called from tasks_test.cpp inside a job. */
#include <stddef.h>
#include <stdint.h>

#include "pure/pure.h"

struct sum_task {
  const int* in;
  int64_t n;
  long long* partial; /* one slot per chunk id; a run [start, end] fills partial[start] */
  int* runs;          /* chunk id -> how many times it ran */
  int bad;            /* set when an idx range call failed */
};

static void sum_chunks(PURE_Chunk_id start, PURE_Chunk_id end, void* args, void* context) {
  struct sum_task* task = (struct sum_task*)context;
  const int factor = *(const int*)args;
  int64_t lo = 0;
  int64_t hi = -1;
  long long sum = 0;
  PURE_Chunk_id c;
  if (pure_task_aligned_idx_range(task->n, sizeof(int), start, end, &lo, &hi) != PURE_SUCCESS) {
    task->bad = 1;
    return;
  }
  for (int64_t i = lo; i <= hi; ++i) sum += (long long)task->in[i] * factor;
  task->partial[start] = sum;
  /* Each id is claimed by exactly one thread, so plain increments do. */
  for (c = start; c <= end; ++c) task->runs[c] += 1;
}

/* Sums in[0..n) * factor with a task of `chunks` chunks (at most 64).
 * Returns the error code of pure_task_execute; *total gets the sum and
 * *exactly_once whether every chunk ran once. */
int c_task_sum(const int* in, int64_t n, int factor, int chunks, long long* total,
               int* exactly_once) {
  long long partial[64] = {0};
  int runs[64] = {0};
  struct sum_task task;
  int rc;
  int c;
  task.in = in;
  task.n = n;
  task.partial = partial;
  task.runs = runs;
  task.bad = 0;
  rc = pure_task_execute(sum_chunks, &task, chunks, &factor);
  *total = 0;
  *exactly_once = !task.bad;
  for (c = 0; c < chunks; ++c) {
    *total += partial[c];
    if (runs[c] != 1) *exactly_once = 0;
  }
  return rc;
}

/* The error paths: no function, and idx ranges outside a chunk. */
int c_task_null_function(void) { return pure_task_execute(NULL, NULL, 4, NULL); }

int c_idx_range_outside_chunk(void) {
  int64_t lo = 0;
  int64_t hi = 0;
  return pure_task_idx_range(10, 0, 0, &lo, &hi);
}
