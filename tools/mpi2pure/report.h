// Diagnostics in the compiler's format, `file:line:col: error: ...`, each
// printed once however many translation units reach the same spot (a header
// is parsed once per source that includes it), in file and line order
// rather than in the order the preprocessor and the AST pass found them.
#pragma once

#include <set>
#include <string>
#include <tuple>

namespace mpi2pure {

class Reporter {
 public:
  // `where` is "file:line:col", or a file name alone.
  void error(const std::string& where, const std::string& message);
  void warning(const std::string& where, const std::string& message);
  int errors() const { return errors_; }
  // Prints what was reported since the last flush, sorted.
  void flush();

 private:
  void add(const std::string& where, const std::string& kind, const std::string& message);

  // (file, line, column, full text): sorts by position, and a repeat of the
  // same text at the same spot is one entry.
  std::set<std::tuple<std::string, long, long, std::string>> pending_, printed_;
  int errors_ = 0;
};

}  // namespace mpi2pure
