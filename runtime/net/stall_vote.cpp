#include "net/stall_vote.h"

#include <unistd.h>

#include <limits>

#include "net/cluster.h"

namespace pure {

StallVote::StallVote(MPI_Comm world) {
  mpi_check(MPI_Comm_dup(world, &comm_), "MPI_Comm_dup");
}

StallVote::~StallVote() {
  // Rounds end only with one where every process is done (the watchdog
  // polls until then), or the job was aborted and MPI is gone with it.
  if (comm_ != MPI_COMM_NULL && !pending_)
    mpi_check(MPI_Comm_free(&comm_), "MPI_Comm_free", MpiFailure::report);
}

std::optional<StallVote::Round> StallVote::poll(std::int64_t stalled_ms, bool done,
                                                std::uint64_t progress) {
  if (!pending_) {
    least_in_[0] = done ? std::numeric_limits<long long>::max() : stalled_ms;
    least_in_[1] = done ? 1 : 0;
    progress_in_ = progress;
    mpi_check(MPI_Iallreduce(least_in_, least_out_, 2, MPI_LONG_LONG, MPI_MIN, comm_, &requests_[0]),
              "MPI_Iallreduce");
    mpi_check(MPI_Iallreduce(&progress_in_, &progress_out_, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                             comm_, &requests_[1]),
              "MPI_Iallreduce");
    pending_ = true;
  }
  int complete = 0;
  mpi_check(MPI_Testall(2, requests_, &complete, MPI_STATUSES_IGNORE), "MPI_Testall");
  if (!complete) return std::nullopt;
  pending_ = false;
  return Round{least_out_[0], least_out_[1] != 0, progress_out_};
}

void StallVote::settle(double seconds) {
  MPI_Request barrier = MPI_REQUEST_NULL;
  if (MPI_Ibarrier(comm_, &barrier) != MPI_SUCCESS) return;
  for (int i = 0; i < static_cast<int>(seconds * 1000); ++i) {
    int complete = 0;
    if (MPI_Test(&barrier, &complete, MPI_STATUS_IGNORE) != MPI_SUCCESS || complete) return;
    usleep(1000);
  }
}

}  // namespace pure
