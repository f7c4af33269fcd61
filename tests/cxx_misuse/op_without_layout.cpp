// Must not compile: a lambda reduction over a struct without a PURE_LAYOUT.
#include "pure/pure.hpp"

struct Point {
  double x, y;
};

Point f(const pure::communicator& comm, Point p) {
  return comm.allreduce(p, [](const Point& a, const Point& b) { return Point{a.x + b.x, a.y + b.y}; });
}
