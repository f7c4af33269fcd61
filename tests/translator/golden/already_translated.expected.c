/* Code that is already Pure code: translating it changes nothing. */
#include <pure/compat.h>
#include <pure/pure.h>
#include <stdio.h>

_Thread_local int counter;
static _Thread_local const char *label = "done";

int pure_main(int argc, char **argv) {
  pure_init(&argc, &argv);
  pure_srand(3);
  pure_printf("%s %d %d\n", label, counter, pure_rand());
  pure_finalize();
  pure_exit(0);
}
