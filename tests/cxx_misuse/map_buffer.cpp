// Must not compile: a std::map is not a contiguous buffer.
#include <map>

#include "pure/pure.hpp"

void f(const pure::communicator& comm) {
  std::map<int, double> m{{1, 2.0}};
  comm.send(m, 1);
}
