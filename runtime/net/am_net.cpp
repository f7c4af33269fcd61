#include "net/am_net.h"

#include <cstddef>
#include <cstdlib>

#include "net/cluster.h"

namespace pure {

namespace {

int wire_bytes(const onesided::AmMessage& m) {
  return static_cast<int>(offsetof(onesided::AmMessage, payload) + m.bytes);
}

}  // namespace

AmNet::AmNet(onesided::Shared& shared, const RankMap& map) : shared_(shared), map_(map) {
  mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
  mpi_check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

AmNet::~AmNet() {
  // Sends still in flight at the end (a kAmDone nobody waits for) keep
  // their memory: MPI may still read it.
  for (auto& s : sends_) MPI_Request_free(&s.first);
  MPI_Comm_free(&comm_);
}

void AmNet::send(onesided::AmMessage* m) {
  MPI_Request request = MPI_REQUEST_NULL;
  mpi_check(MPI_Isend(m, wire_bytes(*m), MPI_BYTE, map_.proc_of(m->target), kTag, comm_, &request),
            "MPI_Isend");
  std::lock_guard<std::mutex> hold(sends_mutex_);
  sends_.emplace_back(request, m);
}

void AmNet::poll() {
  std::unique_lock<std::mutex> polling(poll_mutex_, std::try_to_lock);
  if (!polling.owns_lock()) return;
  {
    std::lock_guard<std::mutex> hold(sends_mutex_);
    for (std::size_t i = 0; i < sends_.size();) {
      int done = 0;
      mpi_check(MPI_Test(&sends_[i].first, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done) {
        ++i;
        continue;
      }
      onesided::AmMessage::destroy(sends_[i].second);
      sends_[i] = sends_.back();
      sends_.pop_back();
    }
  }
  for (;;) {
    int found = 0;
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    mpi_check(MPI_Improbe(MPI_ANY_SOURCE, kTag, comm_, &found, &message, &status), "MPI_Improbe");
    if (!found) return;
    int bytes = 0;
    mpi_check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    auto* m = static_cast<onesided::AmMessage*>(std::malloc(static_cast<std::size_t>(bytes)));
    if (!m) fail(PURE_ERR_NO_MEM, "cannot receive an active message of %d bytes", bytes);
    mpi_check(MPI_Mrecv(m, bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
    m->next = nullptr;
    shared_.arrived(m);
  }
}

}  // namespace pure
