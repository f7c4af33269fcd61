// Namespace globals and static members shared between two C++ files.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace sim {
extern std::vector<int> events;
extern int generation;

class Registry {
 public:
  static void add(const std::string& name, int value);
  static std::string summary();
  static int instances;

 private:
  static std::map<std::string, int> entries_;
};
}  // namespace sim
