// Rank: one rank thread's context, the owner of its pieces -- its Waiter
// (base), point-to-point Endpoint (channels) and, across processes, its
// RemoteChannel (net), its collective Member (collectives), its one-sided
// Member (onesided), its handle tables, its buffered-send buffer -- and the
// work its waits do (WaitWork: point-to-point progress, active messages and
// stealing task chunks). The layers below see only the piece they need; none of them
// knows Rank.
#pragma once

#include <cstdint>
#include <memory>

#include "base/waiter.h"
#include "channels/bsend_buffer.h"
#include "channels/endpoint.h"
#include "channels/remote.h"
#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "composite/context.h"
#include "job/handles.h"
#include "onesided/member.h"
#include "pure/pure.h"

namespace pure {

class Cluster;
class Process;
namespace sched {
class Worker;
}

class Rank final : public WaitWork {
 public:
  // Registers the rank's Parker with the process's Peers; the communicators
  // come with install_world, once every rank of the process exists.
  Rank(Process& process, int index);
  // PURE_COMM_WORLD (whose Dropbox the process's ranks share) and PURE_COMM_SELF.
  void install_world(const std::shared_ptr<coll::Dropbox>& world_dropbox);
  // PURE_INFO_ENV: the command and arguments this rank runs with, the
  // job's size, the host and the working directory.
  void set_environment(int argc, char** argv);
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;
  ~Rank() override;

  // The rank of the calling thread, or nullptr outside rank threads; and
  // the scheduler state of the calling thread (its rank's, or a helper
  // thread's). The runtime's thread_local: only the flat C layer reads it.
  static Rank* current();
  static void set_current(Rank* rank);
  static sched::Worker* current_worker();
  static void set_current_worker(sched::Worker* worker);

  Process& process() { return process_; }
  int index() const { return index_; }  // local index inside the process
  int world() const { return world_; }  // rank in PURE_COMM_WORLD
  Waiter& waiter() { return waiter_; }
  Endpoint& p2p() { return endpoint_; }
  coll::Member& member() { return member_; }
  onesided::Member& onesided() { return onesided_; }
  Handles& handles() { return handles_; }
  BsendBuffer& bsend_buffer() { return bsend_buffer_; }

  enum class State { created, running, finalized };
  State state() const { return state_; }
  void set_state(State s) { state_ = s; }
  int thread_level() const { return thread_level_; }
  void set_thread_level(int level) { thread_level_ = level; }

  // ---- communicators ----
  Comm* comm(PURE_Comm handle) { return handles_.comm(handle); }
  PURE_Comm add_comm(std::unique_ptr<Comm> comm) {
    Comm* c = comm.get();
    const PURE_Comm handle = handles_.comms.add(std::move(comm));
    c->set_handle(handle);
    return handle;
  }
  void free_comm(PURE_Comm handle) { handles_.comms.remove(handle); }
  // What the composite layer works with (composite/context.h).
  Context context() {
    return Context{endpoint_, member_, cluster(), *service_, world_, creation_clock_};
  }

  // ---- datatypes ----
  const Datatype* type(PURE_Datatype handle) { return handles_.type(handle); }
  TypeRef type_ref(PURE_Datatype handle) { return handles_.type_ref(handle); }

  // ---- requests ----
  Request* new_request() { return endpoint_.new_request(); }
  void free_request(Request* r) { endpoint_.free_request(r); }

  // ---- waiting (base/waiter.h) ----
  bool own_core() const { return waiter_.own_core(); }
  template <class Done>
  void wait_until(Done&& done, const WaitSite& site) {
    waiter_.wait_until(done, site);
  }
  void poll_missed() { waiter_.poll_missed(); }
  void progress(bool stuck) override;

 private:
  const Cluster* cluster() const;
  bool steal() override;
  bool remote_in_flight() override;

  Process& process_;
  const int index_;
  const int world_;
  Waiter waiter_;
  Endpoint endpoint_;
  std::unique_ptr<Remote> remote_;  // a job of several processes only (net/remote_channel.h)
  coll::Member member_;
  onesided::Member onesided_;
  Handles handles_;
  std::unique_ptr<Comm> service_;  // the runtime's own world communicator (composite/context.h)
  std::uint32_t creation_clock_ = 0;  // composite/context.h
  BsendBuffer bsend_buffer_;
  State state_ = State::created;
  int thread_level_ = PURE_THREAD_SINGLE;
};

}  // namespace pure
