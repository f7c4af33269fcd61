#include <pure/compat.h>
/* Each rank has its own copy of the program's globals, shared by the
 * threads it starts: every use of a mutable object with static storage
 * becomes PURE_RANK(x), whatever EXTERN expands to; declarations stay.
 * Constant objects stay shared; sizeof needs no copy. A global holding the
 * address of another is registered, so that each rank's copy points into
 * that rank's copy. */
#include <pure/pure.h>
#include <stdio.h>

#ifdef DEFINE_GLOBALS
#define EXTERN
#else
#define EXTERN extern
#endif
#define BUMP(v) (v += PURE_RANK(step_size))
#define STEP_COUNTER PURE_RANK(counter)

EXTERN int iterations;
EXTERN double residual, history[16];
extern int defined_elsewhere;
extern double table[];
int counter = 0;
static double scale = 1.5;
static const char *label = "stencil";
const int table_size = 16;
static const double weights[3] = {0.25, 0.5, 0.25};
volatile int flag;
static struct {
  int x, y;
} origin;
char *const fixed_name = "fixed";
int step_size = 1;
int *current = &counter; static void pure_rank_relocate_current(void) __attribute__((constructor)); static void pure_rank_relocate_current(void) { pure_rank_relocate(&current, sizeof current); }
static double *rows[2] = {history, history + 8}; static void pure_rank_relocate_rows(void) __attribute__((constructor)); static void pure_rank_relocate_rows(void) { pure_rank_relocate(&rows, sizeof rows); }

static int next_id(void) {
  static int id = 0;
  static const int step = 1;
  extern int defined_elsewhere;
  return PURE_RANK(id) += step + PURE_RANK(defined_elsewhere) * 0;
}

int pure_main(int argc, char **argv) {
  pure_init(&argc, &argv);
  int local = next_id();
  double scratch[sizeof history / sizeof history[0]];
  double varying[PURE_RANK(iterations) + 1];
  BUMP(PURE_RANK(counter));
  STEP_COUNTER++;
  *PURE_RANK(current) += 1;
  PURE_RANK(rows)[1][0] = PURE_RANK(table)[0] + scratch[0] * 0 + varying[0] * 0;
  pure_printf("%s %d %d %f %d %d\n", PURE_RANK(label), local, PURE_RANK(counter), PURE_RANK(scale) * weights[1], table_size,
         PURE_RANK(origin).x + PURE_RANK(flag));
  (void)fixed_name;
  pure_finalize();
  return 0;
}
