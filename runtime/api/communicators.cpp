// Flat API: creating, comparing, naming and freeing communicators, hints,
// and intercommunicators.
#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "api/call.h"
#include "api/comms.h"
#include "api/requests.h"
#include "base/topology.h"
#include "composite/build.h"
#include "composite/create_among.h"
#include "composite/intercomm.h"
#include "composite/topologies.h"
#include "nonblocking/idup.h"

using namespace pure;
using namespace pure::api;

namespace {

std::string from(const char* call) { return std::string("a communicator from ") + call; }

// An intracommunicator's split, dup and create.
std::unique_ptr<Comm> split(Call& c, Comm& comm, const char* call, int color, int key) {
  Context cx = c.rank.context();
  return split_comm(cx, comm, call, color, key, from(call));
}

int position(const std::vector<int>& members, int world) {
  auto it = std::find(members.begin(), members.end(), world);
  return it == members.end() ? PURE_UNDEFINED : static_cast<int>(it - members.begin());
}

// PURE_IDENT, PURE_SIMILAR or PURE_UNEQUAL for two member lists.
int compare_members(const std::vector<int>& a, const std::vector<int>& b) {
  if (a == b) return PURE_IDENT;
  std::vector<int> sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sa == sb ? PURE_SIMILAR : PURE_UNEQUAL;
}

// The members of `group` must all be in `comm`'s group.
void subgroup_arg(const Comm& comm, const std::vector<int>& g) {
  for (std::size_t i = 0; i < g.size(); ++i)
    if (comm.rank_of(g[i]) < 0)
      fail(PURE_ERR_GROUP, "rank %zu of the group (rank %d of PURE_COMM_WORLD) is not in %s", i,
           g[i], comm.name().c_str());
}

// The hints a communicator keeps (pure.h, pure_comm_set_info), from `info`
// over `base`; the others are ignored.
Info hints_of(const Info& base, const Info* info) {
  static const char* const kKnown[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                       "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
  Info hints = base;
  for (const char* key : kKnown) {
    if (!hints.find(key)) hints.set(key, "false");
    if (const std::string* v = info ? info->find(key) : nullptr)
      if (*v == "true" || *v == "false") hints.set(key, *v);
  }
  return hints;
}

void dup_of(Call& c, Comm& cm, const char* call, const Info* info, PURE_Comm* newcomm) {
  Context cx = c.rank.context();
  std::unique_ptr<Comm> made;
  if (cm.inter()) {
    made = inter::dup(cx, cm, call);
  } else {
    made = dup_comm(cx, cm, call, from(call));
    topo::copy_topology(cm, *made);
  }
  *newcomm = install(c, cm, std::move(made));
  copy_cached(c, cm, newcomm);
  if (info) c.rank.comm(*newcomm)->set_hints(hints_of(Info{}, info));
}

// pure_comm_idup, and with `with_info` pure_comm_idup_with_info, whose
// hints (taken now: the program may free `info` at once) the new
// communicator gets as pure_comm_dup_with_info's does.
int idup(const char* name, PURE_Comm comm, PURE_Info info, bool with_info, PURE_Comm* newcomm,
         PURE_Request* request) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    std::optional<Info> hints;
    if (with_info) hints = hints_of(Info{}, info_arg(c, info, true));
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    *newcomm = PURE_COMM_NULL;  // until the request completes
    Rank* rank = &c.rank;
    // The parent as it is when the request completes (in a wait or test of
    // this rank), or an error if the program freed it before.
    auto parent_of = [rank, comm, name]() -> Comm& {
      Comm* found = rank->comm(comm);
      if (!found)
        fail(PURE_ERR_COMM, "communicator 0x%x was freed before its %s completed",
             static_cast<unsigned>(comm), name);
      return *found;
    };
    if (cm.inter()) {
      Request* r = nbc::idup_inter(
          c.rank.p2p(), c.rank.member().shared(), cm, c.rank.process().tag_ub(),
          [rank, newcomm, name, hints, parent_of](const NewComm& bridge, const NewComm& group,
                                                  const NewComm& messages) {
            Call done{*rank, name};
            Comm& parent = parent_of();
            const int world = rank->world();
            std::unique_ptr<Comm> made = inter::assemble_dup(
                parent, make_comm(bridge, world, "the bridge of an intercommunicator"),
                make_comm(group, world, "the group of an intercommunicator"),
                make_comm(messages, world, "an intercommunicator's messages"), name);
            *newcomm = install(done, parent, std::move(made));
            copy_cached(done, parent, newcomm);
            if (hints) rank->comm(*newcomm)->set_hints(*hints);
          });
      *request = handle_of(r);
      return;
    }
    Request* r = nbc::idup(
        c.rank.p2p(), c.rank.member().shared(), cm, c.rank.process().tag_ub(),
        [rank, newcomm, name, hints, parent_of](const NewComm& share) {
          // Completion runs in a wait or test of this rank: the rest of
          // what pure_comm_dup does, with the parent as it is now.
          Call done{*rank, name};
          Comm& parent = parent_of();
          std::unique_ptr<Comm> made = make_comm(share, rank->world(), from(name));
          topo::copy_topology(parent, *made);
          *newcomm = install(done, parent, std::move(made));
          copy_cached(done, parent, newcomm);
          if (hints) rank->comm(*newcomm)->set_hints(*hints);
        });
    *request = handle_of(r);
  });
}

// ---- pure_comm_split_type by hardware ----

constexpr const char* kHwResourceKey = "mpi_hw_resource_type";

// The levels of hardware a communicator splits by, widest first: the
// process (its ranks share memory), the NUMA node of a rank's core, the
// core (ranks that share one, as fibers or threads).
enum class HwLevel { shared_memory, numa_node, core };

const char* hw_name(HwLevel level) {
  switch (level) {
    case HwLevel::shared_memory: return "mpi_shared_memory";
    case HwLevel::numa_node: return "NUMANode";
    case HwLevel::core: return "Core";
  }
  return "";
}

std::optional<HwLevel> hw_level(const std::string& value) {
  const std::string prefix = "hwloc://";
  const std::string name =
      value.compare(0, prefix.size(), prefix) == 0 ? value.substr(prefix.size()) : value;
  for (HwLevel level : {HwLevel::shared_memory, HwLevel::numa_node, HwLevel::core})
    if (name == hw_name(level)) return level;
  return std::nullopt;
}

// The communicator of the ranks of `comm` that share this rank's `level`,
// its info naming the level (MPI's mpi_hw_resource_type). The colour is the
// first world rank of the node (of the process in a job of one), and
// within it the NUMA node or core of a pinned rank (the processes of a node
// take consecutive cores, job/process.cpp); an unpinned rank may run
// anywhere on the node, so the node is all it knows.
std::unique_ptr<Comm> hw_split(Call& c, Comm& comm, HwLevel level, int key) {
  Process& process = c.rank.process();
  const long long first = process.node_first(), world = process.world_size();
  long long part = 0;
  if (level != HwLevel::shared_memory && process.pins_ranks()) {
    const Topology& hw = Topology::get();
    const int core = (c.rank.index() + process.node_offset()) % hw.cores();
    part = level == HwLevel::numa_node ? hw.numa_node_of_core(core) : core;
  }
  const long long colour = part * world + first;
  if (colour > INT_MAX)
    fail(PURE_ERR_INTERN, "%s split: colour %lld does not fit an int", hw_name(level), colour);
  std::unique_ptr<Comm> made =
      split(c, comm, "pure_comm_split_type", static_cast<int>(colour), key);
  if (made) {
    Info hints = hints_of(Info{}, nullptr);
    hints.set(kHwResourceKey, hw_name(level));
    made->set_hints(hints);
  }
  return made;
}

}  // namespace

extern "C" {



int pure_comm_dup(PURE_Comm comm, PURE_Comm* newcomm) {
  return call("pure_comm_dup", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    dup_of(c, cm, "pure_comm_dup", nullptr, newcomm);
  });
}

int pure_comm_idup(PURE_Comm comm, PURE_Comm* newcomm, PURE_Request* request) {
  return idup("pure_comm_idup", comm, PURE_INFO_NULL, false, newcomm, request);
}

int pure_comm_idup_with_info(PURE_Comm comm, PURE_Info info, PURE_Comm* newcomm,
                             PURE_Request* request) {
  return idup("pure_comm_idup_with_info", comm, info, true, newcomm, request);
}

int pure_comm_dup_with_info(PURE_Comm comm, PURE_Info info, PURE_Comm* newcomm) {
  return call("pure_comm_dup_with_info", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const Info* hints = info_arg(c, info, true);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    Info empty;
    dup_of(c, cm, "pure_comm_dup_with_info", hints ? hints : &empty, newcomm);
  });
}

int pure_comm_split(PURE_Comm comm, int color, int key, PURE_Comm* newcomm) {
  return call("pure_comm_split", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    if (color < 0 && color != PURE_UNDEFINED)
      fail(PURE_ERR_ARG, "invalid color %d (must be >= 0 or PURE_UNDEFINED)", color);
    Context cx = c.rank.context();
    *newcomm = install(c, cm,
                       cm.inter() ? inter::split(cx, cm, color, key, "pure_comm_split")
                                  : split(c, cm, "pure_comm_split", color, key));
  });
}

int pure_comm_split_type(PURE_Comm comm, int split_type, int key, PURE_Info info,
                         PURE_Comm* newcomm) {
  return call("pure_comm_split_type", [&](Call& c) {
    Comm& cm = intra_arg(c, comm);
    const Info* given = info_arg(c, info, true);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    switch (split_type) {
      case PURE_UNDEFINED:
        *newcomm = install(c, cm, split(c, cm, "pure_comm_split_type", PURE_UNDEFINED, key));
        return;
      case PURE_COMM_TYPE_SHARED:
        *newcomm = install(c, cm, hw_split(c, cm, HwLevel::shared_memory, key));
        return;
      case PURE_COMM_TYPE_HW_GUIDED: {
        const std::string* type = given ? given->find(kHwResourceKey) : nullptr;
        if (!type)
          fail(PURE_ERR_INFO_KEY,
               "PURE_COMM_TYPE_HW_GUIDED needs the info key \"%s\" (\"mpi_shared_memory\", "
               "\"NUMANode\" or \"Core\", hwloc names with or without \"hwloc://\")",
               kHwResourceKey);
        // A resource Pure does not know: a collective call that makes nothing.
        const std::optional<HwLevel> level = hw_level(*type);
        *newcomm = install(c, cm,
                           level ? hw_split(c, cm, *level, key)
                                 : split(c, cm, "pure_comm_split_type", PURE_UNDEFINED, key));
        return;
      }
      case PURE_COMM_TYPE_HW_UNGUIDED:
        // The widest level below the whole communicator: every group it makes
        // is a strict subset, or it makes one group, the same for every member.
        for (HwLevel level : {HwLevel::shared_memory, HwLevel::numa_node, HwLevel::core}) {
          std::unique_ptr<Comm> made = hw_split(c, cm, level, key);
          if (made && made->size() < cm.size()) {
            *newcomm = install(c, cm, std::move(made));
            return;
          }
        }
        *newcomm = PURE_COMM_NULL;
        return;
      default:
        fail(PURE_ERR_ARG,
             "invalid split_type %d (PURE_COMM_TYPE_SHARED, PURE_COMM_TYPE_HW_GUIDED, "
             "PURE_COMM_TYPE_HW_UNGUIDED or PURE_UNDEFINED)",
             split_type);
    }
  });
}

int pure_comm_create(PURE_Comm comm, PURE_Group group, PURE_Comm* newcomm) {
  return call("pure_comm_create", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    const std::vector<int>& g = group_arg(c, group)->members();
    subgroup_arg(cm, g);
    const int pos = position(g, c.rank.world());
    Context cx = c.rank.context();
    if (cm.inter()) {
      const int color = pos == PURE_UNDEFINED ? PURE_UNDEFINED : 0;
      *newcomm = install(c, cm, inter::split(cx, cm, color, pos, "pure_comm_create"));
      return;
    }
    // Members may pass different groups as long as they are disjoint (MPI
    // 2.2 and on): each becomes a communicator of its own. A group's first
    // world rank names it, and the members keep the group's order.
    const int color =
        pos == PURE_UNDEFINED ? PURE_UNDEFINED : *std::min_element(g.begin(), g.end());
    *newcomm = install(c, cm, split(c, cm, "pure_comm_create", color, pos));
  });
}

int pure_comm_create_group(PURE_Comm comm, PURE_Group group, int tag, PURE_Comm* newcomm) {
  return call("pure_comm_create_group", [&](Call& c) {
    Comm& cm = intra_arg(c, comm);
    const GroupRef& g = group_arg(c, group);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    send_tag_arg(c, tag);
    subgroup_arg(cm, g->members());
    // Not a member: a local call that makes nothing (MPI).
    if (position(g->members(), c.rank.world()) == PURE_UNDEFINED) {
      *newcomm = PURE_COMM_NULL;
      return;
    }
    Context cx = c.rank.context();
    *newcomm = install(c, cm,
                       make_comm(create_among(cx, g, tag, "pure_comm_create_group"), cx.world,
                                 from("pure_comm_create_group")));
  });
}

int pure_comm_free(PURE_Comm* comm) {
  return call("pure_comm_free", [&](Call& c) {
    if (!comm) fail(PURE_ERR_ARG, "null communicator pointer");
    comm_arg(c, *comm);
    if (*comm == PURE_COMM_WORLD || *comm == PURE_COMM_SELF)
      fail(PURE_ERR_COMM, "%s cannot be freed",
           *comm == PURE_COMM_WORLD ? "PURE_COMM_WORLD" : "PURE_COMM_SELF");
    free_comm(c, *comm);
    *comm = PURE_COMM_NULL;
  });
}

int pure_comm_compare(PURE_Comm comm1, PURE_Comm comm2, int* result) {
  return call("pure_comm_compare", [&](Call& c) {
    Comm& a = comm_arg(c, comm1);
    Comm& b = comm_arg(c, comm2);
    if (!result) fail(PURE_ERR_ARG, "null result pointer");
    if (&a == &b) {
      *result = PURE_IDENT;
    } else if (a.inter() != b.inter()) {
      *result = PURE_UNEQUAL;
    } else {
      // Intercommunicators: both groups compare, and the weaker result wins.
      int g = compare_members(a.members(), b.members());
      if (a.inter()) g = std::max(g, compare_members(a.remote_group().members(),
                                                     b.remote_group().members()));
      *result = g == PURE_IDENT ? PURE_CONGRUENT : g;
    }
  });
}

int pure_comm_set_name(PURE_Comm comm, const char* comm_name) {
  return call("pure_comm_set_name", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!comm_name) fail(PURE_ERR_ARG, "null name");
    cm.set_name(std::string(comm_name, strnlen(comm_name, PURE_MAX_OBJECT_NAME - 1)));
  });
}

int pure_comm_get_name(PURE_Comm comm, char* comm_name, int* resultlen) {
  return call("pure_comm_get_name", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!comm_name || !resultlen) fail(PURE_ERR_ARG, "null name or length pointer");
    // A predefined communicator is called what the program calls it:
    // MPI_COMM_WORLD in a program written for MPI (as pure_type_get_name).
    const bool predefined = cm.name() == "PURE_COMM_WORLD" || cm.name() == "PURE_COMM_SELF";
    const std::string name = predefined ? in_program_names(cm.name()) : cm.name();
    const std::size_t n = std::min<std::size_t>(name.size(), PURE_MAX_OBJECT_NAME - 1);
    std::memcpy(comm_name, name.data(), n);
    comm_name[n] = '\0';
    *resultlen = static_cast<int>(n);
  });
}

int pure_comm_set_info(PURE_Comm comm, PURE_Info info) {
  return call("pure_comm_set_info", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const Info* hints = info_arg(c, info, false);
    cm.set_hints(hints_of(cm.hints(), hints));
  });
}

int pure_comm_get_info(PURE_Comm comm, PURE_Info* info_used) {
  return call("pure_comm_get_info", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!info_used) fail(PURE_ERR_ARG, "null info pointer");
    *info_used = c.rank.handles().infos.add(hints_of(cm.hints(), nullptr));
  });
}

// ---- intercommunicators ----

int pure_comm_test_inter(PURE_Comm comm, int* flag) {
  return call("pure_comm_test_inter", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    *flag = cm.inter();
  });
}

namespace {
Comm& inter_arg(Call& c, PURE_Comm handle) {
  Comm& cm = comm_arg(c, handle);
  if (!cm.inter())
    fail(PURE_ERR_COMM, "%s is not an intercommunicator", cm.name().c_str());
  return cm;
}
}  // namespace

int pure_comm_remote_size(PURE_Comm comm, int* size) {
  return call("pure_comm_remote_size", [&](Call& c) {
    Comm& cm = inter_arg(c, comm);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = cm.remote_group().size();
  });
}

int pure_comm_remote_group(PURE_Comm comm, PURE_Group* group) {
  return call("pure_comm_remote_group", [&](Call& c) {
    Comm& cm = inter_arg(c, comm);
    if (!group) fail(PURE_ERR_ARG, "null group pointer");
    *group = c.rank.handles().groups.add(cm.remote_group_ref());
  });
}

int pure_intercomm_create(PURE_Comm local_comm, int local_leader, PURE_Comm peer_comm,
                          int remote_leader, int tag, PURE_Comm* newintercomm) {
  return call("pure_intercomm_create", [&](Call& c) {
    Comm& local = intra_arg(c, local_comm);
    if (!newintercomm) fail(PURE_ERR_ARG, "null newintercomm pointer");
    if (local_leader < 0 || local_leader >= local.size())
      fail(PURE_ERR_RANK, "invalid local_leader %d (%s has %d ranks)", local_leader,
           local.name().c_str(), local.size());
    send_tag_arg(c, tag);
    Comm* peer = nullptr;
    if (local.rank() == local_leader) {
      // Only the local leader's peer communicator and remote leader count.
      peer = &comm_arg(c, peer_comm);
      c.errors = &local;
      if (remote_leader < 0 || remote_leader >= peer->peer_size())
        fail(PURE_ERR_RANK, "invalid remote_leader %d (%s has %d ranks)", remote_leader,
             peer->name().c_str(), peer->peer_size());
      if (peer->peer_world(remote_leader) == c.rank.world())
        fail(PURE_ERR_RANK, "remote_leader %d of %s is the local leader itself", remote_leader,
             peer->name().c_str());
    }
    Context cx = c.rank.context();
    *newintercomm = install(c, local,
                            inter::create(cx, local, local_leader, peer, remote_leader, tag,
                                          "pure_intercomm_create"));
  });
}

int pure_intercomm_merge(PURE_Comm intercomm, int high, PURE_Comm* newintracomm) {
  return call("pure_intercomm_merge", [&](Call& c) {
    Comm& cm = inter_arg(c, intercomm);
    if (!newintracomm) fail(PURE_ERR_ARG, "null newintracomm pointer");
    Context cx = c.rank.context();
    *newintracomm = install(c, cm, inter::merge(cx, cm, high != 0, "pure_intercomm_merge"));
  });
}

}  // extern "C"
