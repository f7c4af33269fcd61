// Diagnostics in the compiler's format, `file:line:col: error: ...`, each
// printed once however many translation units reach the same spot (a header
// is parsed once per source that includes it).
#pragma once

#include <set>
#include <string>

namespace mpi2pure {

class Reporter {
 public:
  // `where` is "file:line:col", or a file name alone.
  void error(const std::string& where, const std::string& message);
  void warning(const std::string& where, const std::string& message);
  int errors() const { return errors_; }

 private:
  bool first_time(const std::string& text);

  std::set<std::string> printed_;
  int errors_ = 0;
};

}  // namespace mpi2pure
