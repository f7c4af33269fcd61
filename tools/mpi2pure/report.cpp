#include "report.h"

#include <cstdlib>

#include "llvm/Support/raw_ostream.h"

namespace mpi2pure {

void Reporter::add(const std::string& where, const std::string& kind,
                   const std::string& message) {
  // Split "file:line:col" from the right, so that a file name with ':' works.
  std::string file = where;
  long line = 0, col = 0;
  size_t c2 = where.rfind(':');
  size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : where.rfind(':', c2 - 1);
  if (c1 != std::string::npos) {
    file = where.substr(0, c1);
    line = std::strtol(where.c_str() + c1 + 1, nullptr, 10);
    col = std::strtol(where.c_str() + c2 + 1, nullptr, 10);
  }
  auto entry = std::make_tuple(file, line, col, where + ": " + kind + ": " + message);
  if (printed_.count(entry) || !pending_.insert(entry).second) return;
  if (kind == "error") ++errors_;
}

void Reporter::error(const std::string& where, const std::string& message) {
  add(where, "error", message);
}

void Reporter::warning(const std::string& where, const std::string& message) {
  add(where, "warning", message);
}

void Reporter::flush() {
  for (const auto& entry : pending_) llvm::errs() << std::get<3>(entry) << "\n";
  printed_.insert(pending_.begin(), pending_.end());
  pending_.clear();
}

}  // namespace mpi2pure
