/* A program written with MPI's names gets its errors in them: "MPI_Send",
 * "MPI_COMM_WORLD", "MPI_ERR_RANK" where the flat API's own names are
 * pure_send, PURE_COMM_WORLD, PURE_ERR_RANK. Included by <pure/mpi.h>, and
 * by purecc into every file it ports from MPI; nothing else needs it.
 *
 * Like compat.h, this header includes no system header: purecc puts it
 * before a file's own feature-test macros. */
#ifndef PURE_MPI_NAMES_H
#define PURE_MPI_NAMES_H

#ifdef __cplusplus
extern "C" {
#endif

/* From now on the runtime's messages name calls, constants and error
 * classes as MPI does. */
void pure_report_mpi_names(void);

#ifdef __cplusplus
}
#endif

/* Runs before main (one copy per file that includes this, all the same). */
static void pure_report_mpi_names_at_start(void) __attribute__((constructor, unused));
static void pure_report_mpi_names_at_start(void) { pure_report_mpi_names(); }

#endif /* PURE_MPI_NAMES_H */
