/* The EXTERN pattern of older codes: main.c defines the globals (EXTERN is
 * empty there), every other file declares them (EXTERN is extern). */
#ifndef GLOBALS_H
#define GLOBALS_H
#include <mpi.h>

#ifdef MAIN_PROGRAM
#define EXTERN
#else
#define EXTERN extern
#endif

EXTERN int my_rank, num_ranks;
EXTERN double local_sum;
EXTERN int history[8];
EXTERN int steps_done;

void accumulate(int step);
void exchange(void);
#endif
