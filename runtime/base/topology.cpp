#include "base/topology.h"

#include <hwloc.h>

#include <thread>
#include <vector>

namespace pure {

struct Topology::Impl {
  hwloc_topology_t topology = nullptr;
  std::vector<hwloc_cpuset_t> core_sets;  // one per usable core, in logical order
};

const Topology& Topology::get() {
  static const Topology instance;  // thread-safe static initialisation
  return instance;
}

Topology::Topology() : impl_(new Impl) {
  if (hwloc_topology_init(&impl_->topology) != 0 || hwloc_topology_load(impl_->topology) != 0) {
    cores_ = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return;
  }
  hwloc_cpuset_t allowed = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(impl_->topology, allowed, HWLOC_CPUBIND_PROCESS) != 0)
    hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(impl_->topology));
  const int n = hwloc_get_nbobjs_by_type(impl_->topology, HWLOC_OBJ_CORE);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(impl_->topology, HWLOC_OBJ_CORE, i);
    if (!hwloc_bitmap_intersects(core->cpuset, allowed)) continue;
    hwloc_cpuset_t set = hwloc_bitmap_dup(core->cpuset);
    hwloc_bitmap_and(set, set, allowed);
    impl_->core_sets.push_back(set);
  }
  hwloc_bitmap_free(allowed);
  cores_ = impl_->core_sets.empty() ? 1 : static_cast<int>(impl_->core_sets.size());
  // hwloc 2 keeps NUMA nodes beside the CPU tree: a core belongs to the node
  // whose cpuset contains it.
  const int nodes = hwloc_get_nbobjs_by_type(impl_->topology, HWLOC_OBJ_NUMANODE);
  for (hwloc_cpuset_t set : impl_->core_sets) {
    int node = 0;
    for (int n = 0; n < nodes; ++n) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(impl_->topology, HWLOC_OBJ_NUMANODE, n);
      if (obj->cpuset && hwloc_bitmap_isincluded(set, obj->cpuset)) {
        node = n;
        break;
      }
    }
    core_numa_.push_back(node);
  }
}

Topology::~Topology() {
  for (hwloc_cpuset_t set : impl_->core_sets) hwloc_bitmap_free(set);
  if (impl_->topology) hwloc_topology_destroy(impl_->topology);
  delete impl_;
}

bool Topology::bind_current_thread(int index) const {
  if (impl_->core_sets.empty()) return false;
  const auto& set = impl_->core_sets[static_cast<size_t>(index) % impl_->core_sets.size()];
  return hwloc_set_cpubind(impl_->topology, set, HWLOC_CPUBIND_THREAD) == 0;
}

int Topology::numa_node_of_core(int index) const {
  if (core_numa_.empty()) return 0;
  return core_numa_[static_cast<size_t>(index) % core_numa_.size()];
}

}  // namespace pure
