// std:: spellings of the replaced C library calls lose their qualifier;
// std::lgamma(float) is lgammaf; std::cout, std::cerr and std::clog are the
// rank's own.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

int main() {
  MPI_Init(nullptr, nullptr);
  std::srand(7);
  std::printf("%d %s\n", std::rand(), std::strerror(1));
  std::cout << "lgamma " << std::lgamma(-1.5f) << " " << std::lgamma(-2.5) << std::endl;
  std::cerr << "mode " << (std::getenv("MODE") ? "set" : "unset") << "\n";
  std::clog << std::flush;
  MPI_Finalize();
  if (std::rand() < 0) std::abort();
  std::exit(0);
}
