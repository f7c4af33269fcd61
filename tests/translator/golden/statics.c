/* Mutable objects with static storage become _Thread_local; constant ones
 * stay shared. The keyword goes after the storage class and before the
 * qualifiers, whatever EXTERN expands to. */
#include <mpi.h>
#include <stdio.h>

#ifdef DEFINE_GLOBALS
#define EXTERN
#else
#define EXTERN extern
#endif

EXTERN int iterations;
EXTERN double residual, history[16];
extern int defined_elsewhere;
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

static int next_id(void) {
  static int id = 0;
  static const int step = 1;
  extern int defined_elsewhere;
  return id += step + defined_elsewhere * 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int local = next_id();
  printf("%s %d %d %f %d %d\n", label, local, counter, scale * weights[1], table_size,
         origin.x + flag);
  (void)fixed_name;
  MPI_Finalize();
  return 0;
}
