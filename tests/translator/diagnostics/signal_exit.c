/* exit in a signal handler ends the rank whose thread the signal reaches,
 * not the process: purecc says so where the handler calls it, whether the
 * handler is set by signal or by sigaction. _exit ends the process, as under
 * mpirun, and a handler that does not exit needs no word. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_term(int sig) { exit(sig == SIGTERM ? 0 : 1); }
static void on_usr1(int sig, siginfo_t *info, void *context) {
  (void)info;
  (void)context;
  if (sig == SIGUSR1) _Exit(2);
}
static void on_hup(int sig) { _exit(sig); }
static volatile sig_atomic_t seen;
static void on_usr2(int sig) { seen = sig; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  signal(SIGTERM, on_term);
  signal(SIGHUP, on_hup);
  signal(SIGUSR2, on_usr2);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_usr1;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &sa, NULL);
  MPI_Finalize();
  return seen;
}
