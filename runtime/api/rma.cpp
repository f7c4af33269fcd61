// Flat API: one-sided communication (put, get, the accumulates, their
// request-based forms) and the synchronisation calls.
#include <vector>

#include "api/call.h"
#include "api/requests.h"
#include "api/windows.h"

using namespace pure;
using namespace pure::api;

namespace {

constexpr int kAllModes = PURE_MODE_NOCHECK | PURE_MODE_NOPRECEDE | PURE_MODE_NOPUT |
                          PURE_MODE_NOSTORE | PURE_MODE_NOSUCCEED;

void assert_arg(int assert) {
  if (assert & ~kAllModes)
    fail(PURE_ERR_ASSERT, "invalid assert %d (an OR of PURE_MODE_* values)", assert);
}

// A target rank of the window; false for PURE_PROC_NULL (nothing to do).
bool target_arg(const onesided::Window& w, int rank) {
  if (rank == PURE_PROC_NULL) return false;
  if (rank < 0 || rank >= w.size())
    fail(PURE_ERR_RANK, "invalid target rank %d (%s has %d ranks)", rank, w.describe().c_str(),
         w.size());
  return true;
}

// A predefined op for the accumulates; `no_op`: whether PURE_NO_OP is
// allowed (the fetching ones only).
int acc_op_arg(PURE_Op op, bool no_op) {
  if (op == PURE_OP_NULL) fail(PURE_ERR_OP, "PURE_OP_NULL is not a valid op");
  const int index = predefined_op(op);
  if (index == 0)
    fail(PURE_ERR_OP,
         "op 0x%x: one-sided accumulates take predefined ops only (MPI allows no user op there)",
         static_cast<unsigned>(op));
  if (index == op_no_op && !no_op)
    fail(PURE_ERR_OP, "PURE_NO_OP is for pure_get_accumulate and pure_fetch_and_op only");
  return index;
}

// One side of an operation: a count and a committed datatype (and a
// buffer, checked when `buf_checked`).
struct Side {
  TypeRef type;
  std::size_t count = 0;
};
// Counts are 64-bit, so that the int calls and their large-count (_c)
// twins share every check.
Side side_arg(Call& c, const void* buf, long long count, PURE_Datatype datatype,
              bool buf_checked) {
  count_arg(count);
  Side s{type_arg(c, datatype), static_cast<std::size_t>(count)};
  if (buf_checked) buffer_arg(buf, count, *s.type.type);
  return s;
}

// The window of a communication call; for a request-based one (`request`
// not null) also checks the epoch and completes the request: operations
// on members of this process are complete when the call returns.
onesided::Window& op_window(Call& c, PURE_Win win, bool request_based, PURE_Request* request) {
  onesided::Window& w = win_arg(c, win);
  if (!request_based) return w;
  if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
  w.require_passive(c.name);
  *request = handle_of(completed_send_request());
  return w;
}

int put(const char* name, const void* origin_addr, long long origin_count,
        PURE_Datatype origin_datatype, int target_rank, PURE_Aint target_disp,
        long long target_count, PURE_Datatype target_datatype,
        PURE_Win win, bool request_based, PURE_Request* request) {
  return call(name, [&](Call& c) {
    onesided::Window& w = op_window(c, win, request_based, request);
    const Side o = side_arg(c, origin_addr, origin_count, origin_datatype, true);
    const Side t = side_arg(c, nullptr, target_count, target_datatype, false);
    if (!target_arg(w, target_rank)) return;
    w.put({origin_addr, o.count, o.type.type}, target_rank, target_disp, t.count, *t.type.type,
          name);
  });
}

int get(const char* name, void* origin_addr, long long origin_count,
        PURE_Datatype origin_datatype, int target_rank, PURE_Aint target_disp,
        long long target_count, PURE_Datatype target_datatype,
        PURE_Win win, bool request_based, PURE_Request* request) {
  return call(name, [&](Call& c) {
    onesided::Window& w = op_window(c, win, request_based, request);
    const Side o = side_arg(c, origin_addr, origin_count, origin_datatype, true);
    const Side t = side_arg(c, nullptr, target_count, target_datatype, false);
    if (!target_arg(w, target_rank)) return;
    w.get({origin_addr, o.count, o.type.type}, target_rank, target_disp, t.count, *t.type.type,
          name);
  });
}

// Accumulate (`fetching` false) and get-accumulate.
int accumulate(const char* name, const void* origin_addr, long long origin_count,
               PURE_Datatype origin_datatype, void* result_addr, long long result_count,
               PURE_Datatype result_datatype, int target_rank, PURE_Aint target_disp,
               long long target_count, PURE_Datatype target_datatype, PURE_Op op, PURE_Win win,
               bool fetching, bool request_based, PURE_Request* request) {
  return call(name, [&](Call& c) {
    onesided::Window& w = op_window(c, win, request_based, request);
    const int index = acc_op_arg(op, fetching);
    const Side t = side_arg(c, nullptr, target_count, target_datatype, false);
    // MPI_NO_OP reads no origin buffer (its arguments may be anything).
    const Side o = index == op_no_op ? t
                                     : side_arg(c, origin_addr, origin_count, origin_datatype,
                                                true);
    const Side r = fetching ? side_arg(c, result_addr, result_count, result_datatype, true) : Side{};
    if (!target_arg(w, target_rank)) return;
    const onesided::Layout result{result_addr, r.count, r.type.type};
    w.accumulate(index, {index == op_no_op ? nullptr : origin_addr, o.count, o.type.type},
                 target_rank, target_disp, t.count, *t.type.type, fetching ? &result : nullptr,
                 name);
  });
}

// A single-element operation's datatype: predefined.
TypeRef element_type_arg(Call& c, PURE_Datatype datatype) {
  TypeRef t = type_arg(c, datatype);
  if (!t.type->predefined())
    fail(PURE_ERR_TYPE, "%s takes a predefined datatype, not a derived one", c.name);
  return t;
}

}  // namespace

extern "C" {

int pure_put(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
             int target_rank, PURE_Aint target_disp, int target_count,
             PURE_Datatype target_datatype, PURE_Win win) {
  return put("pure_put", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, false, nullptr);
}

int pure_rput(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
              int target_rank, PURE_Aint target_disp, int target_count,
              PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request) {
  return put("pure_rput", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, true, request);
}

int pure_get(void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
             int target_rank, PURE_Aint target_disp, int target_count,
             PURE_Datatype target_datatype, PURE_Win win) {
  return get("pure_get", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, false, nullptr);
}

int pure_rget(void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
              int target_rank, PURE_Aint target_disp, int target_count,
              PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request) {
  return get("pure_rget", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, true, request);
}

int pure_accumulate(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
                    int target_rank, PURE_Aint target_disp, int target_count,
                    PURE_Datatype target_datatype, PURE_Op op, PURE_Win win) {
  return accumulate("pure_accumulate", origin_addr, origin_count, origin_datatype, nullptr, 0,
                    PURE_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype,
                    op, win, false, false, nullptr);
}

int pure_raccumulate(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
                     int target_rank, PURE_Aint target_disp, int target_count,
                     PURE_Datatype target_datatype, PURE_Op op, PURE_Win win,
                     PURE_Request* request) {
  return accumulate("pure_raccumulate", origin_addr, origin_count, origin_datatype, nullptr, 0,
                    PURE_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype,
                    op, win, false, true, request);
}

int pure_get_accumulate(const void* origin_addr, int origin_count,
                        PURE_Datatype origin_datatype, void* result_addr, int result_count,
                        PURE_Datatype result_datatype, int target_rank, PURE_Aint target_disp,
                        int target_count, PURE_Datatype target_datatype, PURE_Op op,
                        PURE_Win win) {
  return accumulate("pure_get_accumulate", origin_addr, origin_count, origin_datatype,
                    result_addr, result_count, result_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, true, false, nullptr);
}

int pure_rget_accumulate(const void* origin_addr, int origin_count,
                         PURE_Datatype origin_datatype, void* result_addr, int result_count,
                         PURE_Datatype result_datatype, int target_rank, PURE_Aint target_disp,
                         int target_count, PURE_Datatype target_datatype, PURE_Op op,
                         PURE_Win win, PURE_Request* request) {
  return accumulate("pure_rget_accumulate", origin_addr, origin_count, origin_datatype,
                    result_addr, result_count, result_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, true, true, request);
}

// MPI-4's large-count forms: the same with PURE_Count counts.
int pure_put_c(const void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
               int target_rank, PURE_Aint target_disp, PURE_Count target_count,
               PURE_Datatype target_datatype, PURE_Win win) {
  return put("pure_put_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, false, nullptr);
}

int pure_rput_c(const void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
                int target_rank, PURE_Aint target_disp, PURE_Count target_count,
                PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request) {
  return put("pure_rput_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, true, request);
}

int pure_get_c(void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
               int target_rank, PURE_Aint target_disp, PURE_Count target_count,
               PURE_Datatype target_datatype, PURE_Win win) {
  return get("pure_get_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, false, nullptr);
}

int pure_rget_c(void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
                int target_rank, PURE_Aint target_disp, PURE_Count target_count,
                PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request) {
  return get("pure_rget_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
             target_count, target_datatype, win, true, request);
}

int pure_accumulate_c(const void* origin_addr, PURE_Count origin_count,
                      PURE_Datatype origin_datatype, int target_rank, PURE_Aint target_disp,
                      PURE_Count target_count, PURE_Datatype target_datatype, PURE_Op op,
                      PURE_Win win) {
  return accumulate("pure_accumulate_c", origin_addr, origin_count, origin_datatype, nullptr, 0,
                    PURE_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op,
                    win, false, false, nullptr);
}

int pure_raccumulate_c(const void* origin_addr, PURE_Count origin_count,
                       PURE_Datatype origin_datatype, int target_rank, PURE_Aint target_disp,
                       PURE_Count target_count, PURE_Datatype target_datatype, PURE_Op op,
                       PURE_Win win, PURE_Request* request) {
  return accumulate("pure_raccumulate_c", origin_addr, origin_count, origin_datatype, nullptr, 0,
                    PURE_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op,
                    win, false, true, request);
}

int pure_get_accumulate_c(const void* origin_addr, PURE_Count origin_count,
                          PURE_Datatype origin_datatype, void* result_addr, PURE_Count result_count,
                          PURE_Datatype result_datatype, int target_rank, PURE_Aint target_disp,
                          PURE_Count target_count, PURE_Datatype target_datatype, PURE_Op op,
                          PURE_Win win) {
  return accumulate("pure_get_accumulate_c", origin_addr, origin_count, origin_datatype,
                    result_addr, result_count, result_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, true, false, nullptr);
}

int pure_rget_accumulate_c(const void* origin_addr, PURE_Count origin_count,
                           PURE_Datatype origin_datatype, void* result_addr,
                           PURE_Count result_count, PURE_Datatype result_datatype, int target_rank,
                           PURE_Aint target_disp, PURE_Count target_count,
                           PURE_Datatype target_datatype, PURE_Op op, PURE_Win win,
                           PURE_Request* request) {
  return accumulate("pure_rget_accumulate_c", origin_addr, origin_count, origin_datatype,
                    result_addr, result_count, result_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, true, true, request);
}

int pure_fetch_and_op(const void* origin_addr, void* result_addr, PURE_Datatype datatype,
                      int target_rank, PURE_Aint target_disp, PURE_Op op, PURE_Win win) {
  return call("pure_fetch_and_op", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    const int index = acc_op_arg(op, true);
    const TypeRef t = element_type_arg(c, datatype);
    if (!result_addr || (!origin_addr && index != op_no_op))
      fail(PURE_ERR_BUFFER, "null origin or result buffer");
    if (!target_arg(w, target_rank)) return;
    const onesided::Layout result{result_addr, 1, t.type};
    w.accumulate(index, {origin_addr, 1, t.type}, target_rank, target_disp, 1, *t.type, &result,
                 "pure_fetch_and_op");
  });
}

int pure_compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                          PURE_Datatype datatype, int target_rank, PURE_Aint target_disp,
                          PURE_Win win) {
  return call("pure_compare_and_swap", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    const TypeRef t = element_type_arg(c, datatype);
    if (!origin_addr || !compare_addr || !result_addr)
      fail(PURE_ERR_BUFFER, "null origin, compare or result buffer");
    if (!target_arg(w, target_rank)) return;
    w.compare_and_swap(origin_addr, compare_addr, result_addr, *t.type, target_rank, target_disp,
                       "pure_compare_and_swap");
  });
}

// ---- synchronisation ----

int pure_win_fence(int assert, PURE_Win win) {
  return collective("pure_win_fence", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    assert_arg(assert);
    w.fence(assert, "pure_win_fence");
  });
}

}  // extern "C"

namespace {
// The window ranks of a group's members, each of which must be one.
std::vector<int> window_ranks(Call& c, const onesided::Window& w, PURE_Group group) {
  const std::vector<int>& members = group_arg(c, group)->members();
  std::vector<int> ranks;
  ranks.reserve(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int r = w.group()->rank_of(members[i]);
    if (r < 0)
      fail(PURE_ERR_GROUP, "rank %zu of the group (world rank %d) is not a member of %s", i,
           members[i], w.describe().c_str());
    ranks.push_back(r);
  }
  return ranks;
}
}  // namespace

extern "C" {

int pure_win_start(PURE_Group group, int assert, PURE_Win win) {
  return call("pure_win_start", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    assert_arg(assert);
    w.start(window_ranks(c, w, group), assert, "pure_win_start");
  });
}

int pure_win_complete(PURE_Win win) {
  return call("pure_win_complete",
              [&](Call& c) { win_arg(c, win).complete("pure_win_complete"); });
}

int pure_win_post(PURE_Group group, int assert, PURE_Win win) {
  return call("pure_win_post", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    assert_arg(assert);
    w.post(window_ranks(c, w, group), assert, "pure_win_post");
  });
}

int pure_win_wait(PURE_Win win) {
  return call("pure_win_wait", [&](Call& c) { win_arg(c, win).wait("pure_win_wait"); });
}

int pure_win_test(PURE_Win win, int* flag) {
  return call("pure_win_test", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    *flag = w.test("pure_win_test");
  });
}

int pure_win_lock(int lock_type, int rank, int assert, PURE_Win win) {
  return call("pure_win_lock", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (lock_type != PURE_LOCK_EXCLUSIVE && lock_type != PURE_LOCK_SHARED)
      fail(PURE_ERR_LOCKTYPE,
           "invalid lock type %d (PURE_LOCK_EXCLUSIVE or PURE_LOCK_SHARED)", lock_type);
    assert_arg(assert);
    if (!target_arg(w, rank)) return;
    w.lock(lock_type == PURE_LOCK_EXCLUSIVE, rank, assert, "pure_win_lock");
  });
}

int pure_win_unlock(int rank, PURE_Win win) {
  return call("pure_win_unlock", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!target_arg(w, rank)) return;
    w.unlock(rank, "pure_win_unlock");
  });
}

int pure_win_lock_all(int assert, PURE_Win win) {
  return call("pure_win_lock_all", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    assert_arg(assert);
    w.lock_all(assert, "pure_win_lock_all");
  });
}

int pure_win_unlock_all(PURE_Win win) {
  return call("pure_win_unlock_all",
              [&](Call& c) { win_arg(c, win).unlock_all("pure_win_unlock_all"); });
}

int pure_win_flush(int rank, PURE_Win win) {
  return call("pure_win_flush", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!target_arg(w, rank)) return;
    w.flush(rank, false, "pure_win_flush");
  });
}

int pure_win_flush_all(PURE_Win win) {
  return call("pure_win_flush_all",
              [&](Call& c) { win_arg(c, win).flush(-1, false, "pure_win_flush_all"); });
}

int pure_win_flush_local(int rank, PURE_Win win) {
  return call("pure_win_flush_local", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!target_arg(w, rank)) return;
    w.flush(rank, true, "pure_win_flush_local");
  });
}

int pure_win_flush_local_all(PURE_Win win) {
  return call("pure_win_flush_local_all",
              [&](Call& c) { win_arg(c, win).flush(-1, true, "pure_win_flush_local_all"); });
}

int pure_win_sync(PURE_Win win) {
  return call("pure_win_sync", [&](Call& c) { win_arg(c, win).sync("pure_win_sync"); });
}

}  // extern "C"
