#include "composite/topologies.h"

#include <string>
#include <utility>

#include "base/handle.h"
#include "composite/build.h"
#include "composite/exchange.h"
#include "composite/route.h"

namespace pure::topo {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
const Datatype& int_type() { return *Datatype::predefined(handle_index(PURE_INT)); }

std::unique_ptr<Comm> with_topology(std::unique_ptr<Comm> comm,
                                    std::shared_ptr<const ProcessTopology> topology) {
  if (comm) comm->set_topology(std::move(topology));
  return comm;
}
}  // namespace

std::unique_ptr<Comm> create(Context& cx, Comm& old, int keep,
                             std::shared_ptr<const ProcessTopology> topology, const char* call) {
  const int r = old.rank();
  auto comm = split_comm(cx, old, call, r < keep ? 0 : PURE_UNDEFINED, r,
                         std::string("a communicator from ") + call);
  return with_topology(std::move(comm), std::move(topology));
}

std::unique_ptr<Comm> cart_sub(Context& cx, Comm& cart, const int* remain, const char* call) {
  const ProcessTopology& t = *cart.topology();
  std::vector<int> coords(at(t.ndims()));
  t.coords(cart.rank(), coords.data());
  // Colour: the position in the dimensions dropped; key: the rank, whose
  // order is the row-major order of the dimensions kept within a colour.
  int color = 0;
  std::vector<int> dims, periods;
  for (int d = 0; d < t.ndims(); ++d) {
    if (remain[d]) {
      dims.push_back(t.dims()[at(d)]);
      periods.push_back(t.periods()[at(d)]);
    } else {
      color = color * t.dims()[at(d)] + coords[at(d)];
    }
  }
  auto comm = split_comm(cx, cart, call, color, cart.rank(),
                         std::string("a communicator from ") + call);
  return with_topology(std::move(comm), ProcessTopology::cart(std::move(dims), std::move(periods)));
}

std::unique_ptr<Comm> dist_graph(Context& cx, Comm& old, int n, const int* sources,
                                 const int* degrees, const int* destinations, const int* weights,
                                 bool weighted_here, const char* call) {
  // Each rank's edges as (source, destination, weight) triples.
  std::vector<int> mine;
  int k = 0;
  for (int i = 0; i < n; ++i)
    for (int e = 0; e < degrees[i]; ++e, ++k) {
      mine.push_back(sources[i]);
      mine.push_back(destinations[k]);
      mine.push_back(weights ? weights[k] : 1);
    }
  const int size = old.size();
  int head[2] = {static_cast<int>(mine.size()), weighted_here};
  std::vector<int> heads(at(size) * 2), twos(at(size), 2), offsets(at(size));
  for (int r = 0; r < size; ++r) offsets[at(r)] = 2 * r;
  route::allgatherv(cx.member, old, call, static_cast<const void*>(head), std::size_t{2},
                    &int_type(), static_cast<void*>(heads.data()), twos.data(), offsets.data(),
                    &int_type());
  std::vector<int> counts(at(size)), displs(at(size));
  int total = 0;
  bool weighted = false;
  for (int r = 0; r < size; ++r) {
    counts[at(r)] = heads[at(2 * r)];
    displs[at(r)] = total;
    total += counts[at(r)];
    weighted = weighted || heads[at(2 * r + 1)];
  }
  std::vector<int> all(at(total));
  route::allgatherv(cx.member, old, call, static_cast<const void*>(mine.data()), mine.size(),
                    &int_type(), static_cast<void*>(all.data()), counts.data(), displs.data(),
                    &int_type());
  std::vector<int> in, in_w, out, out_w;
  const int me = old.rank();
  for (std::size_t e = 0; e + 3 <= all.size(); e += 3) {
    if (all[e] == me) {
      out.push_back(all[e + 1]);
      out_w.push_back(all[e + 2]);
    }
    if (all[e + 1] == me) {
      in.push_back(all[e]);
      in_w.push_back(all[e + 2]);
    }
  }
  auto topology = ProcessTopology::dist_graph(std::move(in), std::move(in_w), std::move(out),
                                       std::move(out_w), weighted);
  return create(cx, old, size, std::move(topology), call);
}

void copy_topology(const Comm& from, Comm& to) {
  if (from.topology()) to.set_topology(from.topology_ref());
}

}  // namespace pure::topo
