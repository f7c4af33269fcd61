// Window: one rank's view of an MPI window -- the members' memory through
// the SharedWindow (members in this process) and the WindowRemote (members
// in other processes, when there are any), and this rank's epochs, which
// decide what it may do when.
//
// A put or get to a member in this process is a copy straight into or out
// of its memory, an accumulate a sequence of atomic instructions on it
// (element_op.h): no message, no help from the target. They are complete
// when the call returns, so flushes have nothing to wait for here; the
// synchronisation calls provide the ordering MPI promises (shared_window.h
// says which word pairs with which).
//
// Epochs. Access: none; after a fence (fence_ready, which an RMA call turns
// into fence); PSCW (start .. complete); passive (locks on single targets,
// or lock_all). Exposure: a fence, or post .. wait. A call the epochs do not
// allow is PURE_ERR_RMA_SYNC, never a hang; the rules follow MPICH, which
// lets a lock or start follow a fence that no RMA call followed.
//
// Only the owning rank's thread calls a Window.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/attributes.h"
#include "base/info.h"
#include "base/int_map.h"
#include "comm/group.h"
#include "onesided/member.h"
#include "onesided/remote.h"
#include "onesided/shared_window.h"
#include "onesided/transfer.h"
#include "pure/pure.h"

namespace pure::onesided {

class Window {
 public:
  // `group`: the window's members (world ranks, in window-rank order);
  // `barriers`: the window barriers this member took part in (creation's).
  Window(Member& member, std::shared_ptr<SharedWindow> shared, GroupRef group, Flavor flavor,
         std::uint64_t barriers);
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  ~Window();

  // ---- identity ----
  int rank() const { return rank_; }
  int size() const { return group_->size(); }
  const GroupRef& group() const { return group_; }
  Flavor flavor() const { return flavor_; }
  bool spans_processes() const { return remote_ != nullptr; }
  int handle() const { return handle_; }
  void set_handle(int handle) { handle_ = handle; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  PURE_Errhandler errhandler() const { return errhandler_; }
  void set_errhandler(PURE_Errhandler h) { errhandler_ = h; }
  // "window 'name'" or "window 0x7c010002": how error messages name it.
  std::string describe() const;
  // The program's cached attributes (base/attributes.h) and the info hints
  // the window keeps (api/windows.cpp says which).
  AttributeSet& attributes() { return attributes_; }
  const Info& hints() const { return hints_; }
  void set_hints(Info hints) { hints_ = std::move(hints); }

  // Attribute values (pure_win_get_attr hands out their addresses).
  void* const& base_attr() const { return base_attr_; }
  const PURE_Aint& size_attr() const { return size_attr_; }
  const int& disp_unit_attr() const { return disp_unit_attr_; }
  const int& flavor_attr() const { return flavor_attr_; }
  const int& model_attr() const { return model_attr_; }

  // ---- communication; `target` is a window rank (not PROC_NULL) ----
  void put(const ConstLayout& origin, int target, PURE_Aint disp, std::size_t tcount,
           const Datatype& ttype, const char* call);
  void get(const Layout& origin, int target, PURE_Aint disp, std::size_t tcount,
           const Datatype& ttype, const char* call);
  // `op` predefined (op_replace, op_no_op included); `result` for
  // get-accumulate.
  void accumulate(int op, const ConstLayout& origin, int target, PURE_Aint disp,
                  std::size_t tcount, const Datatype& ttype, const Layout* result,
                  const char* call);
  void compare_and_swap(const void* origin, const void* compare, void* result,
                        const Datatype& type, int target, PURE_Aint disp, const char* call);
  // Request-based calls (pure_rput, ...) only within a passive epoch.
  void require_passive(const char* call) const;

  // ---- direct access (the symmetric heap, sym_heap.h) ----
  // The memory of window rank `target` when it lives in this process, else
  // nullptr.
  char* local_base(int target) { return local(target) ? target_of(target).base : nullptr; }
  // Wakes window rank `target` (in this process): after a store it may be
  // waiting for.
  void notify_member(int target) { target_of(target).parker->notify(); }

  // ---- synchronisation ----
  void fence(int assert, const char* call);
  void start(const std::vector<int>& targets, int assert, const char* call);
  void complete(const char* call);
  void post(const std::vector<int>& origins, int assert, const char* call);
  void wait(const char* call);
  bool test(const char* call);
  void lock(bool exclusive, int target, int assert, const char* call);
  void unlock(int target, const char* call);
  void lock_all(int assert, const char* call);
  void unlock_all(const char* call);
  // target -1: every target.
  void flush(int target, bool local_only, const char* call);
  void sync(const char* call);

  // ---- dynamic and shared windows ----
  void attach(void* base, PURE_Aint size, const char* call);
  void detach(const void* base, const char* call);
  // `target` may be PURE_PROC_NULL: the lowest rank with memory.
  void shared_query(int target, PURE_Aint* size, int* disp_unit, void** base, const char* call);

  // ---- free: throws while this rank has an epoch open; then waits for
  // every member (collective) ----
  void free(const char* call);
  // The check free starts with, for callers with work to do before it.
  void check_free(const char* call) const;

 private:
  enum class Access : std::uint8_t { none, fence_ready, fence, pscw, passive };
  enum class Exposure : std::uint8_t { none, fence, post };
  enum Lock : char { kNone = 0, kShared, kExclusive, kUnchecked };

  bool local(int target) const { return local_of_[static_cast<std::size_t>(target)] >= 0; }
  Target& target_of(int target) {
    return shared_->target(local_of_[static_cast<std::size_t>(target)]);
  }
  // Checks the access epoch for an operation on `target` (waiting for a
  // PSCW post or a lazily taken lock_all lock as needed).
  void access(int target, const char* call);
  // The address of (disp, count, type) at local member `target`, checked
  // against its memory (PURE_ERR_RMA_RANGE otherwise).
  void* address(int target, PURE_Aint disp, std::size_t count, const Datatype& type,
                const char* call);
  // The same check for a member in another process (not for dynamic windows,
  // whose attachments live there).
  void check_remote_range(int target, PURE_Aint disp, std::size_t count, const Datatype& type,
                          const char* call);
  [[noreturn]] void sync_error(const char* call, const char* what) const;
  void take_post(std::size_t i, const char* call);
  void acquire(Target& t, bool exclusive, int target, const char* call);
  void release(Target& t, bool exclusive);
  void lock_word(int target, bool exclusive, const char* call);
  void unlock_word(int target, bool exclusive);
  // Lets the other ranks of this core run: synchronisation calls can be
  // polled in a loop (a get and a flush until a flag changes).
  void poll() { member_.waiter().poll_missed(); }

  Member& member_;
  std::shared_ptr<SharedWindow> shared_;
  std::shared_ptr<WindowRemote> remote_;  // members in other processes, else null
  const std::vector<int>& local_of_;      // window rank -> local index, -1 elsewhere
  GroupRef group_;
  Flavor flavor_;
  int rank_;
  int local_;  // this rank's index in shared_
  int handle_ = 0;
  std::string name_;
  PURE_Errhandler errhandler_ = PURE_ERRORS_ARE_FATAL;
  AttributeSet attributes_;
  Info hints_;

  void* base_attr_ = nullptr;
  PURE_Aint size_attr_ = 0;
  int disp_unit_attr_ = 1;
  int flavor_attr_ = 0;
  int model_attr_ = PURE_WIN_UNIFIED;

  Access access_ = Access::none;
  Exposure exposure_ = Exposure::none;
  std::uint64_t barrier_generation_ = 0;
  // PSCW as an origin: the start group (window ranks), whether each
  // target's post was taken, and where each rank is in it.
  std::vector<int> start_group_;
  std::vector<char> start_posted_;
  IntMap<int> start_index_;
  bool start_nocheck_ = false;
  // PSCW as a target: completes expected from origins in this process
  // (cumulative, as Target::completes counts), and whether the epoch has
  // origins elsewhere.
  std::uint64_t completes_expected_ = 0;
  bool post_remote_ = false;
  // Passive target: this rank's locks by target; lock_all and the targets
  // it has taken a shared lock on so far (taken at first use).
  IntMap<char> locks_;
  int lock_count_ = 0;
  bool lock_all_ = false;
  bool lock_all_nocheck_ = false;
  std::vector<int> lock_all_held_;
  IntMap<char> lock_all_taken_;
};

}  // namespace pure::onesided
