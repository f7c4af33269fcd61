#include "nonblocking/idup.h"

#include <cstring>
#include <memory>

#include "net/comm_dup.h"
#include "nonblocking/schedule.h"

namespace pure::nbc {

Request* idup(Endpoint& p2p, coll::Shared& shared, Comm& comm, int tag_ub,
              std::function<void(const NewComm&)> install) {
  auto s = std::make_unique<Schedule>(p2p, comm, tag_ub, "pure_comm_idup");
  const bool spans = comm.spans_processes();
  // The members in this process, and this one's place among them.
  const Comm& here = spans ? comm.local() : comm;
  const int local_rank = here.rank();
  const int leader = comm.rank_of(here.world_of(0));
  // Each member's share travels as a pointer to a heap copy, which the
  // member takes over.
  auto* pointer = reinterpret_cast<NewComm**>(s->scratch(sizeof(NewComm*)));
  s->round();
  if (local_rank != 0) {
    s->recv(leader, pointer, sizeof(NewComm*), bytes_type());
    s->round();
    s->local([pointer, install] {
      std::unique_ptr<NewComm> share(*pointer);
      install(*share);
    });
    return start(p2p, comm, std::move(s));
  }
  // The leader: what the members in this process share, made now (the
  // context is unique in the process, nothing else needs agreeing on).
  auto share = std::make_shared<NewComm>();
  share->context = shared.next_context();
  share->members = comm.group_ref();
  share->dropbox = std::make_shared<coll::Dropbox>(here.group(), shared.peers());
  if (spans) {
    share->local_members = here.group_ref();
    // MPI's part (net/comm_dup.cpp), polled until done.
    std::shared_ptr<CommDup> dup = start_comm_dup(comm);
    s->wait([dup] { return dup->test(); });
    s->round();
    s->local([dup, share] { share->remote = dup->result(); });
  }
  for (int k = 1; k < here.size(); ++k) {
    auto** out = reinterpret_cast<NewComm**>(s->scratch(sizeof(NewComm*)));
    s->local([out, share] { *out = new NewComm(*share); });
    s->send(comm.rank_of(here.world_of(k)), out, sizeof(NewComm*), bytes_type());
  }
  s->local([share, install] { install(*share); });
  return start(p2p, comm, std::move(s));
}

Request* idup_inter(Endpoint& p2p, coll::Shared& shared, Comm& inter, int tag_ub,
                    InterParts install) {
  struct Parts {
    NewComm made[3];
    int done = 0;
  };
  auto parts = std::make_shared<Parts>();
  // Every member starts the same schedules on the bridge and on its group's
  // communicator in the same order, so their initiation counts agree.
  Comm* const from[3] = {&inter.bridge(), &inter.group_comm(), &inter.bridge()};
  for (int k = 0; k < 3; ++k) {
    Request* part = idup(p2p, shared, *from[k], tag_ub, [parts, k](const NewComm& share) {
      parts->made[k] = share;
      ++parts->done;
    });
    // Nobody waits for the part: the rank's progress runs it, and it is
    // freed when it completes (at once if it already has).
    p2p.detach(part);
  }
  auto s = std::make_unique<Schedule>(p2p, inter.bridge(), tag_ub, "pure_comm_idup");
  s->round();
  s->wait([parts] { return parts->done == 3; });
  s->round();
  s->local([parts, install] { install(parts->made[0], parts->made[1], parts->made[2]); });
  return start(p2p, inter, std::move(s));
}

}  // namespace pure::nbc
