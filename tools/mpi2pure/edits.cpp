#include "edits.h"

#include <algorithm>

namespace mpi2pure {

bool EditSet::add(const std::string& path, const Edit& edit) {
  std::vector<Edit>& list = edits_[path];
  for (const Edit& e : list) {
    if (e.offset == edit.offset && e.length == edit.length) {
      if (e.text == edit.text) return true;
      if (e.length != 0) return false;  // two different replacements of one token
      continue;                         // a second, different insertion at one spot
    }
    // An insertion at the start of a replacement goes before it: no overlap.
    const unsigned a_end = e.offset + e.length, b_end = edit.offset + edit.length;
    const bool overlap = (e.length && edit.offset > e.offset && edit.offset < a_end) ||
                         (edit.length && e.offset > edit.offset && e.offset < b_end) ||
                         (e.length && edit.length && e.offset == edit.offset);
    if (overlap) return false;
  }
  list.push_back(edit);
  return true;
}

bool EditSet::change(const std::string& path, const Edit& edit) {
  for (Edit& e : edits_[path])
    if (e.offset == edit.offset && e.length == edit.length && e.length != 0) {
      e.text = edit.text;
      return true;
    }
  return false;
}

std::string EditSet::apply(const std::string& path, const std::string& original) const {
  auto it = edits_.find(path);
  if (it == edits_.end()) return original;
  std::vector<Edit> list = it->second;
  // By offset; at one offset, insertions (in arrival order) before the
  // replacement. stable_sort keeps arrival order among equals.
  std::stable_sort(list.begin(), list.end(), [](const Edit& a, const Edit& b) {
    if (a.offset != b.offset) return a.offset < b.offset;
    return a.length == 0 && b.length != 0;
  });
  std::string out;
  out.reserve(original.size() + 64 * list.size());
  size_t pos = 0;
  for (const Edit& e : list) {
    if (e.offset < pos || e.offset + e.length > original.size()) continue;  // refused by add()
    out.append(original, pos, e.offset - pos);
    out += e.text;
    pos = e.offset + e.length;
  }
  out.append(original, pos, std::string::npos);
  return out;
}

}  // namespace mpi2pure
