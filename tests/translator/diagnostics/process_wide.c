/* Calls whose state is the process's by nature: purecc says what differs
 * (errors with --strict); per-rank stand-ins (setenv, drand48, atexit)
 * need no word. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void on_signal(int sig) { (void)sig; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  setenv("MODE", "fast", 1);
  umask(022);
  signal(SIGUSR1, on_signal);
  if (argc > 5 && fork() == 0) _exit(0);
  system("true");
  MPI_Finalize();
  return 0;
}
