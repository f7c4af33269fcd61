// Where rank threads run: the cores of the process's cpuset, read with hwloc.
#pragma once

#include <vector>

namespace pure {

class Topology {
 public:
  // The process-wide topology, loaded once (hwloc discovery costs milliseconds).
  static const Topology& get();

  // Physical cores available to this process (its cpuset), at least 1.
  int cores() const { return cores_; }

  // Pins the calling thread to core `index % cores()`. Returns false (and
  // leaves the thread unpinned) when the OS refuses, which is not an error.
  bool bind_current_thread(int index) const;

  // The NUMA node (0-based, dense) of core `index % cores()`; 0 when hwloc
  // knows no NUMA nodes. The NUMA-aware steal policy groups ranks by it.
  int numa_node_of_core(int index) const;

  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;
  ~Topology();

 private:
  Topology();
  struct Impl;
  Impl* impl_;
  int cores_ = 1;
  std::vector<int> core_numa_;  // NUMA node of each usable core
};

}  // namespace pure
