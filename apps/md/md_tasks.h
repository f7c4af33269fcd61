/* md: the force loop of the task version (md_force_tasks.cpp), called by
 * md.c when built with MD_TASKS. */
#ifndef MD_TASKS_H
#define MD_TASKS_H

#include <stdint.h>

#include "md_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* md_forces_of_cells over every owned cell, as a PureTask whose chunks are
 * ranges of cells: ranks of this process that wait (for their halo, in a
 * reduction) run some of them. Returns the pairs within the cutoff. */
uint64_t md_forces_tasks(const struct md_cells* cells, const double* x, double* f, double* e,
                         const struct md_lj* lj);

#ifdef __cplusplus
}
#endif

#endif /* MD_TASKS_H */
