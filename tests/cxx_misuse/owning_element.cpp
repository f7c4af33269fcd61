// Must not compile: a vector of strings (elements that own memory).
#include <string>
#include <vector>

#include "pure/pure.hpp"

void f(const pure::communicator& comm) {
  std::vector<std::string> names{"a", "b"};
  comm.send(names, 1);
}
