#include <pure/compat.h>
// std:: spellings of the replaced C library calls lose their qualifier;
// std::lgamma(float) is lgammaf; std::cout, std::cerr and std::clog are the
// rank's own.
#include <pure/pure.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

extern "C" int pure_main(int, char**) {
  pure_init(nullptr, nullptr);
  pure_srand(7);
  pure_printf("%d %s\n", pure_rand(), pure_strerror(1));
  ::pure::rank_cout() << "lgamma " << pure_lgammaf(-1.5f) << " " << pure_lgamma(-2.5) << std::endl;
  ::pure::rank_cerr() << "mode " << (pure_getenv("MODE") ? "set" : "unset") << "\n";
  ::pure::rank_clog() << std::flush;
  pure_finalize();
  if (pure_rand() < 0) pure_abort_job();
  pure_exit(0);
return 0; }
