// The rewrites of every file, collected over all translation units and
// applied at the end. An edit is keyed by file and byte offset, so the same
// rewrite of a header reached from several sources is recorded once, and two
// sources that want different text at one spot are a conflict, not a silent
// last-one-wins.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mpi2pure {

struct Edit {
  unsigned offset = 0;
  unsigned length = 0;  // 0: an insertion before `offset`
  std::string text;
};

class EditSet {
 public:
  // Records `edit` for file `path` (absolute). False when it overlaps an edit
  // already there with different text; identical edits are kept once, and
  // several different insertions at one offset apply in arrival order.
  bool add(const std::string& path, const Edit& edit);
  // Makes the replacement at edit.offset of edit.length bytes, which must
  // have been added, read edit.text instead (false when there is none).
  bool change(const std::string& path, const Edit& edit);
  // `original` (the contents of `path`) with its edits applied.
  std::string apply(const std::string& path, const std::string& original) const;

 private:
  std::map<std::string, std::vector<Edit>> edits_;
};

}  // namespace mpi2pure
