// StallVote: the processes of a job agree, round after round, on whether the
// whole job is stalled, so that a deadlock across processes is reported as
// one within a process is (Process::watchdog).
//
// Each process's watchdog thread contributes, per round, how long its ranks
// have all been blocked with no progress (0 when some rank runs), whether
// its job is done, and its progress counter; a round is two non-blocking
// MPI reductions on a communicator of their own (minimum of the first two,
// sum of the third), polled with MPI_Test from the watchdog's tick, so the
// vote never blocks and costs one small reduction per tick. Every process
// sees the same sequence of results and so reaches the same verdict in the
// same round.
//
// Rounds go on until one in which every process is done: a process whose
// ranks have ended keeps voting (done) until then, so that no reduction is
// left outstanding at MPI_Finalize.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

namespace pure {

class StallVote {
 public:
  // Collective over `world` (MPI_Comm_dup).
  explicit StallVote(MPI_Comm world);
  ~StallVote();
  StallVote(const StallVote&) = delete;
  StallVote& operator=(const StallVote&) = delete;

  struct Round {
    std::int64_t least_stalled_ms;  // over processes; a done process counts as stalled forever
    bool all_done;
    std::uint64_t progress;  // sum over processes
  };

  // Contributes this process's state to the round under way (starting one
  // if none is), and returns the round's result once it completes.
  std::optional<Round> poll(std::int64_t stalled_ms, bool done, std::uint64_t progress);

  // Whether a round is outstanding (then poll must go on being called).
  bool pending() const { return pending_; }

  // After a verdict of deadlock: waits (boundedly, up to `seconds`) until
  // every process has printed its report, so that one process's MPI_Abort
  // does not cut another's short.
  void settle(double seconds);

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool pending_ = false;
  MPI_Request requests_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  long long least_in_[2] = {0, 0};  // stalled ms, done (0/1)
  long long least_out_[2] = {0, 0};
  unsigned long long progress_in_ = 0;
  unsigned long long progress_out_ = 0;
};

}  // namespace pure
