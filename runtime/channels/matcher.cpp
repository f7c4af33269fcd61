#include "channels/matcher.h"

#include <algorithm>

namespace pure {

std::size_t Matcher::first_match(const Envelope& e, std::size_t from) const {
  for (std::size_t i = std::max(from, first_live_); i < posted_.size(); ++i)
    if (posted_[i] && matches(*posted_[i], e)) return i;
  return kNone;
}

std::size_t Matcher::first_from(int sender, std::size_t from) const {
  for (std::size_t i = std::max(from, first_live_); i < posted_.size(); ++i)
    if (posted_[i] && posted_[i]->peer == sender) return i;
  return kNone;
}

void Matcher::retire(std::size_t i) {
  Request* r = posted_[i];
  --live_;
  any_source_ -= r->peer < 0;
  if (batch_) {
    posted_[i] = nullptr;
    while (first_live_ < posted_.size() && !posted_[first_live_]) ++first_live_;
  } else {
    posted_.erase(posted_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

bool Matcher::remove(Request* r) {
  auto it = std::find(posted_.begin(), posted_.end(), r);
  if (it == posted_.end()) return false;
  retire(static_cast<std::size_t>(it - posted_.begin()));
  return true;
}

void Matcher::end_batch() {
  batch_ = false;
  if (live_ != posted_.size())
    posted_.erase(std::remove(posted_.begin(), posted_.end(), nullptr), posted_.end());
  first_live_ = 0;
}

std::list<Unexpected>::iterator Matcher::find_unexpected(const Request& r) {
  return std::find_if(unexpected_.begin(), unexpected_.end(),
                      [&](const Unexpected& u) { return matches(r, u.envelope); });
}

}  // namespace pure
