/* Mutable objects with static storage become _Thread_local; constant ones
 * stay shared. The keyword goes after the storage class and before the
 * qualifiers, whatever EXTERN expands to. */
#include <pure/pure.h>
#include <stdio.h>

#ifdef DEFINE_GLOBALS
#define EXTERN
#else
#define EXTERN extern
#endif

EXTERN _Thread_local int iterations;
EXTERN _Thread_local double residual, history[16];
extern _Thread_local int defined_elsewhere;
_Thread_local int counter = 0;
static _Thread_local double scale = 1.5;
static _Thread_local const char *label = "stencil";
const int table_size = 16;
static const double weights[3] = {0.25, 0.5, 0.25};
_Thread_local volatile int flag;
static _Thread_local struct {
  int x, y;
} origin;
char *const fixed_name = "fixed";

static int next_id(void) {
  static _Thread_local int id = 0;
  static const int step = 1;
  extern _Thread_local int defined_elsewhere;
  return id += step + defined_elsewhere * 0;
}

int pure_main(int argc, char **argv) {
  pure_init(&argc, &argv);
  int local = next_id();
  printf("%s %d %d %f %d %d\n", label, local, counter, scale * weights[1], table_size,
         origin.x + flag);
  (void)fixed_name;
  pure_finalize();
  return 0;
}
