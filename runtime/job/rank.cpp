#include "job/rank.h"

#include <errno.h>  // program_invocation_name (GNU)
#include <unistd.h>

#include <string>

#include "job/process.h"
#include "net/cluster.h"
#include "net/comm_net.h"
#include "net/remote_channel.h"
#include "net/window_net.h"
#include "sched/scheduler.h"

namespace pure {

namespace {
// The runtime's thread_local: which rank the calling thread is, and its
// scheduler state (helper threads have only the latter). With fibers it
// moves with the rank, as every thread_local does (base/fiber.h).
struct ThreadContext {
  Rank* rank = nullptr;
  sched::Worker* worker = nullptr;
};
thread_local ThreadContext t_current;
}  // namespace

Rank* Rank::current() { return t_current.rank; }
void Rank::set_current(Rank* rank) {
  t_current.rank = rank;
  t_current.worker = rank ? &rank->process().scheduler().worker(rank->index()) : nullptr;
}
sched::Worker* Rank::current_worker() { return t_current.worker; }
void Rank::set_current_worker(sched::Worker* worker) { t_current.worker = worker; }

Rank::Rank(Process& process, int index)
    : process_(process),
      index_(index),
      world_(process.world_rank(index)),
      waiter_(process.backoff(), process.fibers(), index, &process.abort_state()),
      endpoint_(index, waiter_, process.peers(), process.queues(), process.config().eager_limit,
                process.oversubscribed()),
      member_(waiter_, process.collectives()),
      onesided_(waiter_, process.onesided(), world_) {
  waiter_.set_work(this);
  process.peers().set_parker(index, &waiter_.parker());
  process.onesided().enroll(index, &onesided_);
  if (Cluster* cluster = process.cluster()) {
    remote_ = std::make_unique<RemoteChannel>(endpoint_, *cluster);
    endpoint_.set_remote(remote_.get());
  }
}

Rank::~Rank() = default;

void Rank::install_world(const std::shared_ptr<coll::Dropbox>& world_dropbox) {
  auto world = std::make_unique<Comm>(0, process_.world_group(), world_, "PURE_COMM_WORLD");
  if (process_.world_net()) {
    // Across processes the world's Dropbox serves its local view.
    auto local = std::make_unique<Comm>(kLocalContextBit, process_.local_group(), world_,
                                        "PURE_COMM_WORLD (local)");
    local->set_collective(world_dropbox);
    world->set_remote(process_.world_net(), std::move(local));
  } else {
    world->set_collective(world_dropbox);
  }
  auto self_group = std::make_shared<const Group>(std::vector<int>{world_});
  auto self = std::make_unique<Comm>(1, self_group, world_, "PURE_COMM_SELF");
  self->set_collective(std::make_shared<coll::Dropbox>(*self_group, process_.peers()));
  world->set_handle(PURE_COMM_WORLD);
  self->set_handle(PURE_COMM_SELF);
  handles_.comms.set(handle_index(PURE_COMM_WORLD), std::move(world));
  handles_.comms.set(handle_index(PURE_COMM_SELF), std::move(self));
  // The runtime's own: point-to-point only, so no Dropbox and no local view.
  service_ = std::make_unique<Comm>(kServiceContext, process_.world_group(), world_,
                                    "the runtime's world communicator");
  if (process_.service_net()) service_->set_remote(process_.service_net(), nullptr);
}

const Cluster* Rank::cluster() const { return process_.cluster(); }

void Rank::set_environment(int argc, char** argv) {
  Info& env = *handles_.infos.find(PURE_INFO_ENV);
  // An embedding that passes no argv (pure::run from a test or a tool) still
  // runs a program: the name the process was started with.
  if (argc > 0 && argv[0])
    env.set("command", argv[0]);
  else if (program_invocation_name && program_invocation_name[0])
    env.set("command", program_invocation_name);
  std::string args;
  for (int i = 1; i < argc; ++i) args += (i > 1 ? " " : "") + std::string(argv[i]);
  if (argc > 1) env.set("argv", args);
  env.set("maxprocs", std::to_string(process_.world_size()));
  handles_.universe_size = process_.world_size();
  char text[256];
  if (gethostname(text, sizeof text) == 0) {
    text[sizeof text - 1] = '\0';
    env.set("host", text);
  }
  if (getcwd(text, sizeof text)) env.set("wdir", text);
}

void Rank::progress(bool stuck) {
  endpoint_.progress(stuck);
  // Active messages for this rank (and any-thread ones of the process) run
  // whenever it waits (onesided/active_messages.h).
  onesided_.run_in_wait(stuck);
  // A window spanning processes: operations from other processes may need
  // this process's MPI to act (MPI promises no progress of its own).
  if (stuck && remote_ && windows_span_processes()) Cluster::poke();
}

bool Rank::remote_in_flight() {
  return endpoint_.remote_in_flight() || windows_span_processes() ||
         onesided_.shared().remote_active();
}

bool Rank::steal() {
  sched::Scheduler& scheduler = process_.scheduler();
  return scheduler.steal(scheduler.worker(index_));
}

}  // namespace pure
