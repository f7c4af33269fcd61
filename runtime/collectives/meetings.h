// Meetings: where the members of a communicator in one process find the
// state they share for one nonblocking collective run in memory
// (nonblocking/direct_reduce.cpp), by a key every member computes alike
// (the collective's initiation count and, for a persistent one, how often it
// was started). The first member to join makes the state; each member keeps
// a reference, and the entry goes once every member has joined. One mutex,
// held only to look up or insert (once per collective and member), never
// across a wait.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace pure::coll {

class Meetings {
 public:
  using Key = std::pair<std::uint64_t, std::uint64_t>;

  // The state of meeting `key` among `members`; T is made from `members`.
  template <class T>
  std::shared_ptr<T> join(Key key, int members) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [at, fresh] = pending_.try_emplace(key);
    if (fresh) at->second = Pending{std::make_shared<T>(members), members};
    std::shared_ptr<T> state = std::static_pointer_cast<T>(at->second.state);
    if (--at->second.left == 0) pending_.erase(at);
    return state;
  }

 private:
  struct Pending {
    std::shared_ptr<void> state;
    int left = 0;  // members that have not joined yet
  };
  std::mutex mutex_;
  std::map<Key, Pending> pending_;
};

}  // namespace pure::coll
