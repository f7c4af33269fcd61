// Window: identity, access checks and the communication calls. The
// synchronisation calls are in epochs.cpp.
#include "onesided/window.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <mutex>

#include "base/error.h"

namespace pure::onesided {

Window::Window(Member& member, std::shared_ptr<SharedWindow> shared, GroupRef group,
               Flavor flavor, std::uint64_t barriers)
    : member_(member),
      shared_(std::move(shared)),
      remote_(shared_->remote),
      local_of_(shared_->local_of()),
      group_(std::move(group)),
      flavor_(flavor),
      rank_(group_->rank_of(member.world())),
      local_(local_of_[static_cast<std::size_t>(rank_)]),
      barrier_generation_(barriers) {
  const Target& me = shared_->target(local_);
  base_attr_ = flavor_ == Flavor::dynamic ? nullptr : me.base;
  size_attr_ = flavor_ == Flavor::dynamic ? 0 : static_cast<PURE_Aint>(me.size);
  disp_unit_attr_ = me.disp_unit;
  flavor_attr_ = static_cast<int>(flavor_);
}

Window::~Window() = default;

std::string Window::describe() const {
  if (!name_.empty()) return "window '" + name_ + "'";
  char text[32];
  std::snprintf(text, sizeof text, "window 0x%x", static_cast<unsigned>(handle_));
  return text;
}

void Window::sync_error(const char* call, const char* what) const {
  (void)call;
  fail(PURE_ERR_RMA_SYNC, "%s on %s", what, describe().c_str());
}

void Window::require_passive(const char* call) const {
  if (access_ != Access::passive)
    sync_error(call,
               "request-based RMA calls need a passive-target epoch (pure_win_lock or "
               "pure_win_lock_all), and there is none");
}

void Window::access(int target, const char* call) {
  switch (access_) {
    case Access::fence_ready:
      access_ = Access::fence;
      return;
    case Access::fence:
      return;
    case Access::pscw: {
      const int* i = start_index_.find(target);
      if (!i) {
        char what[160];
        std::snprintf(what, sizeof what,
                      "target rank %d is not in the group of the access epoch pure_win_start "
                      "opened",
                      target);
        sync_error(call, what);
      }
      if (!start_posted_[static_cast<std::size_t>(*i)]) take_post(static_cast<std::size_t>(*i), call);
      return;
    }
    case Access::passive:
      if (lock_all_) {
        char& taken = lock_all_taken_[target];
        if (!taken && !lock_all_nocheck_) {
          lock_word(target, false, call);
          lock_all_held_.push_back(target);
        }
        taken = 1;
        return;
      }
      if (const char* l = locks_.find(target); l && *l != kNone) return;
      {
        char what[160];
        std::snprintf(what, sizeof what,
                      "target rank %d is not locked (pure_win_lock it, or use "
                      "pure_win_lock_all)",
                      target);
        sync_error(call, what);
      }
    case Access::none:
      break;
  }
  char what[200];
  std::snprintf(what, sizeof what,
                "no access epoch for target rank %d (open one with pure_win_fence, "
                "pure_win_start, pure_win_lock or pure_win_lock_all)",
                target);
  sync_error(call, what);
}

namespace {
// The bytes (disp, count, type) touches, relative to the displacement's
// byte offset: [lo, hi).
struct Span {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
};
Span span_of(std::size_t count, const Datatype& type) {
  if (count == 0 || type.size() == 0) return {};
  const std::int64_t reach = static_cast<std::int64_t>(count - 1) * type.extent();
  return {type.true_lb() + std::min<std::int64_t>(0, reach),
          type.true_lb() + type.true_extent() + std::max<std::int64_t>(0, reach)};
}
}  // namespace

void* Window::address(int target, PURE_Aint disp, std::size_t count, const Datatype& type,
                      const char* call) {
  (void)call;
  Target& t = target_of(target);
  const Span s = span_of(count, type);
  if (flavor_ == Flavor::dynamic) {
    // The displacement is an address; it must lie in memory the target attached.
    const auto at = static_cast<std::uintptr_t>(disp);
    if (s.hi == s.lo) return reinterpret_cast<void*>(at);
    const std::uintptr_t lo = at + static_cast<std::uintptr_t>(s.lo);
    const std::uintptr_t hi = at + static_cast<std::uintptr_t>(s.hi);
    std::lock_guard<std::mutex> hold(t.regions_mutex);
    for (const Region& r : t.regions)
      if (lo >= r.begin && hi <= r.end) return reinterpret_cast<void*>(at);
    fail(PURE_ERR_RMA_RANGE,
         "target rank %d, displacement 0x%" PRIxPTR " (%" PRId64 " bytes): not in memory rank %d "
         "attached to %s",
         target, at, s.hi - s.lo, target, describe().c_str());
  }
  const std::int64_t offset = static_cast<std::int64_t>(disp) * t.disp_unit;
  if (s.hi != s.lo && (disp < 0 || offset + s.lo < 0 || offset + s.hi > t.size))
    fail(PURE_ERR_RMA_RANGE,
         "target rank %d, displacement %td (bytes %" PRId64 " to %" PRId64
         " at displacement unit %d) is outside %s, which has %" PRId64 " bytes at rank %d",
         target, static_cast<std::ptrdiff_t>(disp), offset + s.lo, offset + s.hi, t.disp_unit,
         describe().c_str(), t.size, target);
  return t.base + offset;
}

void Window::check_remote_range(int target, PURE_Aint disp, std::size_t count,
                                const Datatype& type, const char* call) {
  (void)call;
  if (flavor_ == Flavor::dynamic) return;  // its attachments are known only there
  const Extent& e = (*shared_->extents)[static_cast<std::size_t>(target)];
  const Span s = span_of(count, type);
  const std::int64_t offset = static_cast<std::int64_t>(disp) * e.disp_unit;
  if (s.hi != s.lo && (disp < 0 || offset + s.lo < 0 || offset + s.hi > e.size))
    fail(PURE_ERR_RMA_RANGE,
         "target rank %d, displacement %td (bytes %" PRId64 " to %" PRId64
         " at displacement unit %d) is outside %s, which has %" PRId64 " bytes at rank %d",
         target, static_cast<std::ptrdiff_t>(disp), offset + s.lo, offset + s.hi, e.disp_unit,
         describe().c_str(), e.size, target);
}

namespace {
void same_size(std::size_t origin, std::size_t target, const char* origin_what) {
  if (origin != target)
    fail(PURE_ERR_TYPE,
         "the %s has %zu bytes but the target buffer %zu (their datatypes must have the same "
         "type signature)",
         origin_what, origin, target);
}
}  // namespace

void Window::put(const ConstLayout& origin, int target, PURE_Aint disp, std::size_t tcount,
                 const Datatype& ttype, const char* call) {
  access(target, call);
  same_size(origin.bytes(), tcount * ttype.size(), "origin buffer");
  if (local(target)) {
    void* at = address(target, disp, tcount, ttype, call);
    copy(origin, Layout{at, tcount, &ttype});
    return;
  }
  check_remote_range(target, disp, tcount, ttype, call);
  remote_->put(origin, target, disp, tcount, ttype);
}

void Window::get(const Layout& origin, int target, PURE_Aint disp, std::size_t tcount,
                 const Datatype& ttype, const char* call) {
  access(target, call);
  same_size(origin.bytes(), tcount * ttype.size(), "origin buffer");
  if (local(target)) {
    void* at = address(target, disp, tcount, ttype, call);
    copy(ConstLayout{at, tcount, &ttype}, origin);
    return;
  }
  check_remote_range(target, disp, tcount, ttype, call);
  remote_->get(origin, target, disp, tcount, ttype);
}

void Window::accumulate(int op, const ConstLayout& origin, int target, PURE_Aint disp,
                        std::size_t tcount, const Datatype& ttype, const Layout* result,
                        const char* call) {
  // Both sides consist of the same basic type, and the op applies to it.
  const BaseType base = ttype.base();
  const ElementOp element(op, base, ttype.name());
  if (op != op_no_op) {
    if (origin.type->base() != base && origin.bytes() != 0)
      fail(PURE_ERR_TYPE,
           "the origin datatype (%s) and the target datatype (%s) must consist of the same "
           "predefined datatype",
           origin.type->name(), ttype.name());
    same_size(origin.bytes(), tcount * ttype.size(), "origin buffer");
  }
  if (result) {
    if (result->type->base() != base && result->bytes() != 0)
      fail(PURE_ERR_TYPE,
           "the result datatype (%s) and the target datatype (%s) must consist of the same "
           "predefined datatype",
           result->type->name(), ttype.name());
    same_size(result->bytes(), tcount * ttype.size(), "result buffer");
  }
  access(target, call);
  // On a window spanning processes every accumulate goes through MPI, so
  // that it is atomic against the other processes' (remote.h).
  if (remote_) {
    if (!local(target)) check_remote_range(target, disp, tcount, ttype, call);
    else address(target, disp, tcount, ttype, call);
    remote_->accumulate(op, origin, target, disp, tcount, ttype, result);
    return;
  }
  void* at = address(target, disp, tcount, ttype, call);
  onesided::accumulate(element, origin, Layout{at, tcount, &ttype}, result);
}

void Window::compare_and_swap(const void* origin, const void* compare, void* result,
                              const Datatype& type, int target, PURE_Aint disp,
                              const char* call) {
  if (!type.predefined() || !compare_swap_type(type.base()))
    fail(PURE_ERR_TYPE,
         "pure_compare_and_swap takes one element of a predefined integer, logical or byte "
         "datatype, not %s",
         type.name());
  access(target, call);
  if (remote_) {
    if (!local(target)) check_remote_range(target, disp, 1, type, call);
    else address(target, disp, 1, type, call);
    remote_->compare_and_swap(origin, compare, result, type, target, disp);
    return;
  }
  void* at = address(target, disp, 1, type, call);
  ElementOp::compare_swap(at, compare, origin, result, type.size());
}

}  // namespace pure::onesided
