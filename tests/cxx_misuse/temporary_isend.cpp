// Must not compile: a nonblocking send of a temporary, which would be gone
// before the send completes.
#include <vector>

#include "pure/pure.hpp"

pure::request f(const pure::communicator& comm) { return comm.isend(std::vector<int>{1, 2}, 1); }
