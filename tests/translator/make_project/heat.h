#ifndef HEAT_H
#define HEAT_H
#include <mpi.h>

#ifdef HEAT_MAIN
#define EXTERN
#else
#define EXTERN extern
#endif

#define CELLS 16
EXTERN int rank, nranks;
EXTERN double cells[CELLS + 2];

void grid_step(void);
double grid_total(void);
void print_total(double total);
#endif
