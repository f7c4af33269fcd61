/* main(void) becomes pure_main(int, char **), pure.h's prototype, with the
 * parameters marked used; main's implicit return 0 is made explicit. */
#include <pure/pure.h>

int pure_main(int pure_argc, char **pure_argv) { (void)pure_argc; (void)pure_argv;
  pure_init(NULL, NULL);
  pure_finalize();
return 0; }
