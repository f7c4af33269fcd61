#include <pure/compat.h>
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
#include <pure/pure.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG pure_stderr()
#define SAY(...) fprintf(pure_stdout(), __VA_ARGS__)

extern char **environ;
static const struct option longopts[] = {{"size", required_argument, NULL, 's'}, {NULL, 0, NULL, 0}};

static void bye(void) { pure_puts("bye"); }

int pure_main(int argc, char **argv) {
  pure_init(&argc, &argv);
  int c, index;
  while ((c = pure_getopt_long(argc, argv, "s:v", longopts, &index)) != -1)
    if (c == '?') fprintf(LOG, "bad option %c at %d\n", (*pure_optopt()), (*pure_optind()));
  (*pure_opterr()) = 0;
  if (pure_getopt(argc, argv, "x") == 'x' || pure_getopt_long_only(argc, argv, "", longopts, NULL) == 's')
    pure_printf("%s\n", (*pure_optarg()));
  pure_srand48(3);
  unsigned short xsubi[3] = {1, 2, 3}, param[7] = {1, 2, 3, 4, 5, 6, 7};
  double d = pure_drand48() + pure_erand48(xsubi);
  long l = pure_lrand48() + pure_nrand48(xsubi) + pure_mrand48() + pure_jrand48(xsubi);
  pure_seed48(xsubi);
  pure_lcong48(param);
  d += pure_lgamma(-2.5) * (*pure_signgam()) + pure_lgammaf(-1.5f) + pure_lgamma(3.0);
  struct in_addr a = {0};
  char *text = pure_inet_ntoa(a);
  pure_hcreate(8);
  ENTRY e = {"key", NULL};
  pure_hsearch(e, ENTER);
  pure_setlocale(LC_ALL, "C");
  pure_printf("%s %c\n", text, pure_localeconv()->decimal_point[0]);
  pure_setenv("MODE", "fast", 1);
  pure_putenv("LEVEL=3");
  if (pure_getenv("MODE") && (*pure_environ())[0]) pure_unsetenv("MODE");
  if (pure_chdir("/tmp") == 0) {
    char cwd[256];
    FILE *f = pure_fopen("pure_golden.txt", "w");
    int fd = pure_open("pure_golden.txt", O_RDONLY);
    void *plugin = pure_dlopen("./plugin.so", RTLD_LAZY);
    if (plugin) dlclose(plugin);
    struct stat st;
    pure_stat("pure_golden.txt", &st);
    SAY("%s %d\n", pure_getcwd(cwd, sizeof cwd), fd);
    pure_fclose(f);
    pure_unlink("pure_golden.txt");
  }
  pure_atexit(bye);
  pure_setvbuf(pure_stdout(), NULL, _IONBF, 0);
  pure_putchar('.');
  pure_perror("done");
  pure_fflush(pure_stdout());
  pure_printf("%f %ld\n", d, l);
  pure_finalize();
  return 0;
}
