// std:: spellings of the replaced C library calls lose their qualifier.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main() {
  MPI_Init(nullptr, nullptr);
  std::srand(7);
  std::printf("%d %s\n", std::rand(), std::strerror(1));
  MPI_Finalize();
  if (std::rand() < 0) std::abort();
  std::exit(0);
}
