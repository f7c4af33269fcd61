/* The C library's process-wide state gets per-rank forms: getopt and its
 * globals, the 48-bit generators, lgamma's signgam, functions that return
 * static buffers, the environment, the working directory (with the paths
 * relative to it) and stdout/stderr, also through the program's own
 * macros. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <mpi.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG stderr
#define SAY(...) fprintf(stdout, __VA_ARGS__)

extern char **environ;
static const struct option longopts[] = {{"size", required_argument, NULL, 's'}, {NULL, 0, NULL, 0}};

static void bye(void) { puts("bye"); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int c, index;
  while ((c = getopt_long(argc, argv, "s:v", longopts, &index)) != -1)
    if (c == '?') fprintf(LOG, "bad option %c at %d\n", optopt, optind);
  opterr = 0;
  if (getopt(argc, argv, "x") == 'x' || getopt_long_only(argc, argv, "", longopts, NULL) == 's')
    printf("%s\n", optarg);
  srand48(3);
  unsigned short xsubi[3] = {1, 2, 3}, param[7] = {1, 2, 3, 4, 5, 6, 7};
  double d = drand48() + erand48(xsubi);
  long l = lrand48() + nrand48(xsubi) + mrand48() + jrand48(xsubi);
  seed48(xsubi);
  lcong48(param);
  d += lgamma(-2.5) * signgam + lgammaf(-1.5f) + gamma(3.0);
  struct in_addr a = {0};
  char *text = inet_ntoa(a);
  hcreate(8);
  ENTRY e = {"key", NULL};
  hsearch(e, ENTER);
  setlocale(LC_ALL, "C");
  printf("%s %c\n", text, localeconv()->decimal_point[0]);
  setenv("MODE", "fast", 1);
  putenv("LEVEL=3");
  if (getenv("MODE") && environ[0]) unsetenv("MODE");
  if (chdir("/tmp") == 0) {
    char cwd[256];
    FILE *f = fopen("pure_golden.txt", "w");
    int fd = open("pure_golden.txt", O_RDONLY);
    void *plugin = dlopen("./plugin.so", RTLD_LAZY);
    if (plugin) dlclose(plugin);
    struct stat st;
    stat("pure_golden.txt", &st);
    SAY("%s %d\n", getcwd(cwd, sizeof cwd), fd);
    fclose(f);
    unlink("pure_golden.txt");
  }
  atexit(bye);
  setvbuf(stdout, NULL, _IONBF, 0);
  putchar('.');
  perror("done");
  fflush(stdout);
  printf("%f %ld\n", d, l);
  MPI_Finalize();
  return 0;
}
