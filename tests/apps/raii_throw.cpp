// A C++ Pure application whose window is an RAII object: rank 1 throws
// inside a passive-target epoch, and unwinding frees the window (a
// collective) from the destructor, while rank 0 frees it on its way out of
// the scope. ctest runs it within one process and across processes
// (tests/apps/expect_exit.cmake): the job ends at once with the status of
// an uncaught C++ exception (134), naming the exception's type and what(),
// not with a second failure out of a destructor.
#include <pure/pure.h>

#include <stdexcept>

namespace {

class Window {
 public:
  Window() { pure_win_allocate(64, 1, PURE_INFO_NULL, PURE_COMM_WORLD, &base_, &win_); }
  ~Window() { pure_win_free(&win_); }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  PURE_Win get() const { return win_; }

 private:
  void* base_ = nullptr;
  PURE_Win win_ = PURE_WIN_NULL;
};

}  // namespace

int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  int rank = 0;
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  {
    Window win;
    pure_win_lock_all(0, win.get());
    if (rank == 1) throw std::runtime_error("boom in epoch");
    pure_win_unlock_all(win.get());
  }
  pure_finalize();
  return 0;
}
