/* Each rank has its own copy of the program's globals, shared by the
 * threads it starts: every use of a mutable object with static storage
 * becomes PURE_RANK(x), whatever EXTERN expands to; declarations stay.
 * Constant objects stay shared; sizeof needs no copy. A global holding the
 * address of another is registered, so that each rank's copy points into
 * that rank's copy. */
#include <mpi.h>
#include <stdio.h>

#ifdef DEFINE_GLOBALS
#define EXTERN
#else
#define EXTERN extern
#endif
#define BUMP(v) (v += step_size)
#define STEP_COUNTER counter

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
int *current = &counter;
static double *rows[2] = {history, history + 8};

static int next_id(void) {
  static int id = 0;
  static const int step = 1;
  extern int defined_elsewhere;
  return id += step + defined_elsewhere * 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int local = next_id();
  double scratch[sizeof history / sizeof history[0]];
  double varying[iterations + 1];
  BUMP(counter);
  STEP_COUNTER++;
  *current += 1;
  rows[1][0] = table[0] + scratch[0] * 0 + varying[0] * 0;
  printf("%s %d %d %f %d %d\n", label, local, counter, scale * weights[1], table_size,
         origin.x + flag);
  (void)fixed_name;
  MPI_Finalize();
  return 0;
}
