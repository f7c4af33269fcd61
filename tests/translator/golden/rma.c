/* One-sided communication: every window call, type and constant becomes
 * Pure's. */
#include <mpi.h>

static int on_delete(MPI_Win win, int keyval, void *value, void *extra) {
  (void)win, (void)keyval, (void)value, (void)extra;
  return MPI_SUCCESS;
}

static void on_error(MPI_Win *win, int *code, ...) { (void)win, (void)code; }

void windows(MPI_Comm comm, MPI_Group group, MPI_Info info) {
  MPI_Win win, dyn, shared;
  MPI_Request request;
  MPI_Errhandler handler;
  MPI_Aint size, disp = MPI_Aint_add(0, 8);
  double *base, *part, local[4] = {0};
  long one = 1, old, compare = 0;
  int key, unit, flag;
  void *attr;
  MPI_Win_allocate(64, sizeof(double), info, comm, &base, &win);
  MPI_Win_create(local, sizeof local, sizeof(double), MPI_INFO_NULL, comm, &dyn);
  MPI_Win_free(&dyn);
  MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &dyn);
  MPI_Win_attach(dyn, local, sizeof local);
  MPI_Win_detach(dyn, local);
  MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, comm, &part, &shared);
  MPI_Win_shared_query(shared, MPI_PROC_NULL, &size, &unit, &part);
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &attr, &flag);
  MPI_Win_create_keyval(MPI_WIN_DUP_FN, on_delete, &key, NULL);
  MPI_Win_set_attr(win, key, &one);
  MPI_Win_delete_attr(win, key);
  MPI_Win_free_keyval(&key);
  MPI_Win_create_errhandler(on_error, &handler);
  MPI_Win_set_errhandler(win, handler);
  MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC);
  MPI_Win_set_info(win, info);
  MPI_Win_get_info(win, &info);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  MPI_Put(local, 1, MPI_DOUBLE, 0, disp, 1, MPI_DOUBLE, win);
  MPI_Get(local, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, win);
  MPI_Accumulate(local, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_SUM, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Win_post(group, MPI_MODE_NOPUT, win);
  MPI_Win_start(group, 0, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
  MPI_Compare_and_swap(&one, &compare, &old, MPI_LONG, 0, 0, win);
  MPI_Get_accumulate(&one, 1, MPI_LONG, &old, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_NO_OP, win);
  MPI_Rput(local, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, win, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Win_flush(0, win);
  MPI_Win_unlock(0, win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Win_flush_local_all(win);
  MPI_Win_sync(win);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
}
