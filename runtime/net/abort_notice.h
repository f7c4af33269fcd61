// AbortNotice: a process that aborts the job tells the others first, so that
// each writes its own part of the trace and statistics before MPI_Abort ends
// it (the launcher kills the other processes as soon as one calls
// MPI_Abort, and they would otherwise never hear of it).
//
// Messages on a communicator of its own: a notice (the abort's code) from
// the aborting process to every other, and an acknowledgement back once the
// other has written. Each process keeps one receive of a notice posted,
// which its watchdog thread tests every tick (Process::watchdog). The
// aborting process waits for the acknowledgements boundedly, so a process
// that cannot answer delays the abort but never stops it.
#pragma once

#include <mpi.h>

#include <atomic>
#include <optional>
#include <vector>

namespace pure {

class AbortNotice {
 public:
  // Collective over `world` (MPI_Comm_dup); posts the receive of a notice.
  explicit AbortNotice(MPI_Comm world);
  // Cancels the receive and frees the communicator (before MPI_Finalize).
  ~AbortNotice();
  AbortNotice(const AbortNotice&) = delete;
  AbortNotice& operator=(const AbortNotice&) = delete;

  struct Heard {
    int from;  // the aborting process
    int code;  // its abort's exit code
  };
  // A notice, once one came (then no other is looked for).
  std::optional<Heard> heard();
  // Sends the notice of an abort with `code` to every other process, then
  // waits until each acknowledged, or `seconds` passed. Once per process:
  // a later call (another thread aborting too, a crash while aborting)
  // returns at once.
  void tell_all(int code, double seconds);
  // Tells the aborting process `to` that this one has written its part.
  void acknowledge(int to);

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int me_ = 0;
  int procs_ = 0;
  int incoming_ = 0;  // what the posted receive takes
  MPI_Request posted_ = MPI_REQUEST_NULL;
  int outgoing_ = 0;  // what tell_all sends (kept alive until MPI_Abort)
  std::atomic<bool> told_{false};
  std::vector<int> acks_;  // what tell_all's receives of acknowledgements take
};

}  // namespace pure
