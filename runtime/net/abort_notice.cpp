#include "net/abort_notice.h"

#include <unistd.h>

#include "net/cluster.h"

namespace pure {

namespace {
constexpr int kNoticeTag = 1;
constexpr int kAckTag = 2;
}  // namespace

AbortNotice::AbortNotice(MPI_Comm world) {
  mpi_check(MPI_Comm_dup(world, &comm_), "MPI_Comm_dup");
  mpi_check(MPI_Comm_rank(comm_, &me_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm_, &procs_), "MPI_Comm_size");
  mpi_check(MPI_Irecv(&incoming_, 1, MPI_INT, MPI_ANY_SOURCE, kNoticeTag, comm_, &posted_),
            "MPI_Irecv");
}

AbortNotice::~AbortNotice() {
  if (posted_ != MPI_REQUEST_NULL) {
    mpi_check(MPI_Cancel(&posted_), "MPI_Cancel", MpiFailure::report);
    mpi_check(MPI_Wait(&posted_, MPI_STATUS_IGNORE), "MPI_Wait", MpiFailure::report);
  }
  mpi_check(MPI_Comm_free(&comm_), "MPI_Comm_free", MpiFailure::report);
}

std::optional<AbortNotice::Heard> AbortNotice::heard() {
  if (posted_ == MPI_REQUEST_NULL) return std::nullopt;
  int done = 0;
  MPI_Status status;
  mpi_check(MPI_Test(&posted_, &done, &status), "MPI_Test");
  if (!done) return std::nullopt;
  return Heard{status.MPI_SOURCE, incoming_};
}

void AbortNotice::tell_all(int code, double seconds) {
  if (told_.exchange(true, std::memory_order_relaxed)) return;
  outgoing_ = code;
  for (int p = 0; p < procs_; ++p) {
    if (p == me_) continue;
    // Never waited for: MPI_Abort ends whatever is still in flight.
    MPI_Request req = MPI_REQUEST_NULL;
    mpi_check(MPI_Isend(&outgoing_, 1, MPI_INT, p, kNoticeTag, comm_, &req), "MPI_Isend");
    mpi_check(MPI_Request_free(&req), "MPI_Request_free");
  }
  // Each process acknowledges once it has written its part.
  acks_.assign(static_cast<std::size_t>(procs_), 0);
  std::vector<MPI_Request> reqs;
  for (int p = 0; p < procs_; ++p) {
    if (p == me_) continue;
    reqs.push_back(MPI_REQUEST_NULL);
    mpi_check(MPI_Irecv(&acks_[static_cast<std::size_t>(p)], 1, MPI_INT, p, kAckTag, comm_,
                        &reqs.back()),
              "MPI_Irecv");
  }
  // Left posted if some never come: MPI_Abort follows.
  for (int i = 0; i < static_cast<int>(seconds * 1000); ++i) {
    int all = 0;
    mpi_check(MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &all, MPI_STATUSES_IGNORE),
              "MPI_Testall", MpiFailure::report);
    if (all) return;
    usleep(1000);
  }
}

void AbortNotice::acknowledge(int to) {
  static const int ack = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  mpi_check(MPI_Isend(&ack, 1, MPI_INT, to, kAckTag, comm_, &req), "MPI_Isend");
  mpi_check(MPI_Request_free(&req), "MPI_Request_free");
}

}  // namespace pure
