#include "registry.hpp"

#include <sstream>

namespace sim {
std::vector<int> events;
int generation = 0;
int Registry::instances = 0;
std::map<std::string, int> Registry::entries_;

void Registry::add(const std::string& name, int value) {
  entries_[name] += value;
  ++instances;
}

std::string Registry::summary() {
  std::ostringstream out;
  for (const auto& [name, value] : entries_) out << name << "=" << value << " ";
  out << "n=" << instances;
  return out.str();
}
}  // namespace sim
