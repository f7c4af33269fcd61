#include "net/comm_dup.h"

#include <mpi.h>

#include <algorithm>
#include <vector>

#include "net/cluster.h"
#include "net/comm_net.h"

namespace pure {

namespace {

// The MPI side of a duplicate, made with MPI_Comm_idup, one call at a time:
// the collective communicator from the parent's first point-to-point
// communicator, then one point-to-point communicator per slot from that.
//
// Why this way. These calls happen when the leader's progress gets to them,
// not at pure_comm_idup in the communicator's collective order, so they
// must not go through the parent's collective communicator (whose
// collectives the hierarchical ones issue in that order); the parent's
// point-to-point communicators carry no collective but these. And MPI
// libraries have had hangs with several MPI_Comm_idup outstanding on one
// communicator (Open MPI issues 2025 and 2380, MPICH 2269), so each
// parent has one at a time: its duplicates wait in a queue (CommNet::dups),
// which every process's leader runs in the order the idups started there,
// the communicator's order.
class MpiCommDup final : public CommDup {
 public:
  explicit MpiCommDup(std::shared_ptr<CommNet> parent)
      : parent_(std::move(parent)), net_(std::make_shared<CommNet>()) {
    net_->copy_layout(*parent_);
    parent_->dups.push_back(this);
  }

  ~MpiCommDup() override {
    // Out of the queue if the job unwinds first (an MPI request still
    // outstanding is left to MPI_Finalize or MPI_Abort).
    auto& q = parent_->dups;
    q.erase(std::remove(q.begin(), q.end(), this), q.end());
  }

  bool test() override {
    if (done_) return true;
    if (request_ == MPI_REQUEST_NULL) {
      if (parent_->dups.front() != this) return false;  // an earlier duplicate goes first
      start_next();
    }
    int flag = 0;
    mpi_check(MPI_Test(&request_, &flag, MPI_STATUS_IGNORE), "MPI_Test");
    if (!flag) return false;
    request_ = MPI_REQUEST_NULL;
    if (next_slot_ == net_->p2p.size()) {
      for (MPI_Comm& c : net_->p2p)
        mpi_check(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
      mpi_check(MPI_Comm_set_errhandler(net_->coll, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
      parent_->dups.pop_front();
      done_ = true;
      return true;
    }
    start_next();
    return false;
  }

  std::shared_ptr<Comm::Part> result() override { return net_; }

 private:
  // The next MPI_Comm_idup: the collective communicator first, then each slot's.
  void start_next() {
    if (net_->coll == MPI_COMM_NULL) {
      net_->p2p.assign(2 * static_cast<std::size_t>(net_->slots()), MPI_COMM_NULL);
      mpi_check(MPI_Comm_idup(parent_->p2p[0], &net_->coll, &request_), "MPI_Comm_idup");
      return;
    }
    mpi_check(MPI_Comm_idup(net_->coll, &net_->p2p[next_slot_++], &request_), "MPI_Comm_idup");
  }

  std::shared_ptr<CommNet> parent_;
  std::shared_ptr<CommNet> net_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::size_t next_slot_ = 0;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<CommDup> start_comm_dup(const Comm& comm) {
  return std::make_unique<MpiCommDup>(std::static_pointer_cast<CommNet>(comm.remote_ref()));
}

}  // namespace pure
