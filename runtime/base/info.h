// Info: MPI's info object, (key, value) strings in the order the keys were
// first set. Also what a communicator keeps of the hints it was given.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pure {

class Info {
 public:
  using Entry = std::pair<std::string, std::string>;

  const std::string* find(const std::string& key) const {
    for (const Entry& e : entries_)
      if (e.first == key) return &e.second;
    return nullptr;
  }
  // Adds the key, or replaces its value where it is.
  void set(const std::string& key, const std::string& value) {
    for (Entry& e : entries_)
      if (e.first == key) {
        e.second = value;
        return;
      }
    entries_.emplace_back(key, value);
  }
  bool erase(const std::string& key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first == key) {
        entries_.erase(it);
        return true;
      }
    return false;
  }
  const std::vector<Entry>& entries() const { return entries_; }
  int size() const { return static_cast<int>(entries_.size()); }

 private:
  std::vector<Entry> entries_;
};

}  // namespace pure
