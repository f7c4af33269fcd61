#include <pure/compat.h>
// std:: spellings of the replaced C library calls lose their qualifier.
#include <pure/pure.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" int pure_main(int, char**) {
  pure_init(nullptr, nullptr);
  pure_srand(7);
  std::printf("%d %s\n", pure_rand(), pure_strerror(1));
  pure_finalize();
  if (pure_rand() < 0) pure_abort_job();
  pure_exit(0);
return 0; }
