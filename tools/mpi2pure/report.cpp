#include "report.h"

#include "llvm/Support/raw_ostream.h"

namespace mpi2pure {

bool Reporter::first_time(const std::string& text) { return printed_.insert(text).second; }

void Reporter::error(const std::string& where, const std::string& message) {
  std::string text = where + ": error: " + message;
  if (!first_time(text)) return;
  ++errors_;
  llvm::errs() << text << "\n";
}

void Reporter::warning(const std::string& where, const std::string& message) {
  std::string text = where + ": warning: " + message;
  if (!first_time(text)) return;
  llvm::errs() << text << "\n";
}

}  // namespace mpi2pure
