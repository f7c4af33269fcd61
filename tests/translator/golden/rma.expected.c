/* One-sided communication: every window call, type and constant becomes
 * Pure's. */
#include <pure/pure.h>

static int on_delete(PURE_Win win, int keyval, void *value, void *extra) {
  (void)win, (void)keyval, (void)value, (void)extra;
  return PURE_SUCCESS;
}

static void on_error(PURE_Win *win, int *code, ...) { (void)win, (void)code; }

void windows(PURE_Comm comm, PURE_Group group, PURE_Info info) {
  PURE_Win win, dyn, shared;
  PURE_Request request;
  PURE_Errhandler handler;
  PURE_Aint size, disp = pure_aint_add(0, 8);
  double *base, *part, local[4] = {0};
  long one = 1, old, compare = 0;
  int key, unit, flag;
  void *attr;
  pure_win_allocate(64, sizeof(double), info, comm, &base, &win);
  pure_win_create(local, sizeof local, sizeof(double), PURE_INFO_NULL, comm, &dyn);
  pure_win_free(&dyn);
  pure_win_create_dynamic(PURE_INFO_NULL, comm, &dyn);
  pure_win_attach(dyn, local, sizeof local);
  pure_win_detach(dyn, local);
  pure_win_allocate_shared(64, 1, PURE_INFO_NULL, comm, &part, &shared);
  pure_win_shared_query(shared, PURE_PROC_NULL, &size, &unit, &part);
  pure_win_get_attr(win, PURE_WIN_MODEL, &attr, &flag);
  pure_win_create_keyval(PURE_WIN_DUP_FN, on_delete, &key, NULL);
  pure_win_set_attr(win, key, &one);
  pure_win_delete_attr(win, key);
  pure_win_free_keyval(&key);
  pure_win_create_errhandler(on_error, &handler);
  pure_win_set_errhandler(win, handler);
  pure_win_call_errhandler(win, PURE_ERR_RMA_SYNC);
  pure_win_set_info(win, info);
  pure_win_get_info(win, &info);
  pure_win_fence(PURE_MODE_NOPRECEDE, win);
  pure_put(local, 1, PURE_DOUBLE, 0, disp, 1, PURE_DOUBLE, win);
  pure_get(local, 1, PURE_DOUBLE, 0, 0, 1, PURE_DOUBLE, win);
  pure_accumulate(local, 1, PURE_DOUBLE, 0, 0, 1, PURE_DOUBLE, PURE_SUM, win);
  pure_win_fence(PURE_MODE_NOSUCCEED, win);
  pure_win_post(group, PURE_MODE_NOPUT, win);
  pure_win_start(group, 0, win);
  pure_win_complete(win);
  pure_win_wait(win);
  pure_win_lock(PURE_LOCK_EXCLUSIVE, 0, 0, win);
  pure_fetch_and_op(&one, &old, PURE_LONG, 0, 0, PURE_SUM, win);
  pure_compare_and_swap(&one, &compare, &old, PURE_LONG, 0, 0, win);
  pure_get_accumulate(&one, 1, PURE_LONG, &old, 1, PURE_LONG, 0, 0, 1, PURE_LONG, PURE_NO_OP, win);
  pure_rput(local, 1, PURE_DOUBLE, 0, 0, 1, PURE_DOUBLE, win, &request);
  pure_wait(&request, PURE_STATUS_IGNORE);
  pure_win_flush(0, win);
  pure_win_unlock(0, win);
  pure_win_lock_all(PURE_MODE_NOCHECK, win);
  pure_win_flush_local_all(win);
  pure_win_sync(win);
  pure_win_unlock_all(win);
  pure_win_free(&win);
}
