// The MPI side of active messages (onesided/active_messages.h, AmRemote):
// a message for a rank of another process is one MPI message of its bytes
// (header and payload) to that process, on a communicator of its own
// (a duplicate of MPI_COMM_WORLD, whose ranks are the processes), one tag.
// Sends are nonblocking and completed by later polls; arrivals are found
// by matched probes and received into a message of their size, one
// polling thread at a time (a try-lock: the others go on), so that they
// are taken in MPI's order (AmRemote says why that matters).
#pragma once

#include <mpi.h>

#include <mutex>
#include <utility>
#include <vector>

#include "net/rank_map.h"
#include "onesided/member.h"

namespace pure {

class AmNet final : public onesided::AmRemote {
 public:
  // Collective over the processes (MPI_Comm_dup), at start.
  AmNet(onesided::Shared& shared, const RankMap& map);
  AmNet(const AmNet&) = delete;
  AmNet& operator=(const AmNet&) = delete;
  ~AmNet() override;

  void send(onesided::AmMessage* m) override;
  void poll() override;

 private:
  static constexpr int kTag = 1;
  onesided::Shared& shared_;
  const RankMap& map_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::mutex poll_mutex_;   // one poller at a time; try-locked, never waited for
  std::mutex sends_mutex_;  // the sends in flight, held only to add or scan
  std::vector<std::pair<MPI_Request, onesided::AmMessage*>> sends_;
};

}  // namespace pure
