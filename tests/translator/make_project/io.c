#include <stdio.h>
#include "heat.h"

void print_total(double total) {
  if (rank == 0) printf("heat: %d ranks, total %.6f\n", nranks, total);
}
