// Flat API: creating, comparing and freeing communicators; groups.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "api/call.h"
#include "api/requests.h"
#include "collectives/collectives.h"
#include "net/hierarchical.h"
#include "nonblocking/idup.h"

using namespace pure;
using namespace pure::api;

namespace {

// A split of `comm`, inside the process or across processes.
NewComm split(Call& c, Comm& comm, const char* call, int color, int key) {
  if (comm.spans_processes())
    return hier::split(c.rank.member(), comm, call, color, key, *c.rank.process().cluster());
  return coll::split(c.rank.member(), comm, call, color, key);
}

// Installs this rank's share of a newly created communicator, which
// inherits the parent's error handler `errhandler`, as MPI specifies.
PURE_Comm install(Rank& rank, PURE_Errhandler errhandler, const NewComm& share, const char* how) {
  if (share.context < 0) return PURE_COMM_NULL;
  auto comm = std::make_unique<Comm>(share.context, share.members, rank.world(),
                                     std::string("a communicator from ") + how);
  if (share.remote) {
    // Members in several processes: the Dropbox serves the local view.
    auto local = std::make_unique<Comm>(share.context | kLocalContextBit, share.local_members,
                                        rank.world(),
                                        std::string("the local part of ") + comm->name());
    local->set_collective(share.dropbox);
    comm->set_remote(share.remote, std::move(local));
  } else {
    comm->set_collective(share.dropbox);
  }
  comm->set_errhandler(errhandler);
  return rank.add_comm(std::move(comm));
}

int position(const std::vector<int>& members, int index) {
  auto it = std::find(members.begin(), members.end(), index);
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

void group_ranks_arg(const std::vector<int>& g, int n, const int ranks[]) {
  if (n < 0) fail(PURE_ERR_ARG, "invalid number of ranks %d", n);
  if (n > 0 && !ranks) fail(PURE_ERR_ARG, "null rank array with n = %d", n);
  std::vector<bool> seen(g.size(), false);
  for (int i = 0; i < n; ++i) {
    if (ranks[i] < 0 || ranks[i] >= static_cast<int>(g.size()))
      fail(PURE_ERR_RANK, "ranks[%d] = %d is not a rank of the group (size %zu)", i, ranks[i],
           g.size());
    if (seen[static_cast<std::size_t>(ranks[i])])
      fail(PURE_ERR_RANK, "rank %d appears twice in the rank array", ranks[i]);
    seen[static_cast<std::size_t>(ranks[i])] = true;
  }
}

}  // namespace

extern "C" {

int pure_comm_dup(PURE_Comm comm, PURE_Comm* newcomm) {
  return call("pure_comm_dup", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    NewComm share = split(c, cm, "pure_comm_dup", 0, cm.rank());
    *newcomm = install(c.rank, cm.errhandler(), share, "pure_comm_dup");
  });
}

int pure_comm_idup(PURE_Comm comm, PURE_Comm* newcomm, PURE_Request* request) {
  return call("pure_comm_idup", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    *newcomm = PURE_COMM_NULL;  // until the request completes
    Rank* rank = &c.rank;
    const PURE_Errhandler errhandler = cm.errhandler();
    Request* r = nbc::idup(c.rank.p2p(), c.rank.member().shared(), cm, c.rank.process().tag_ub(),
                           [rank, newcomm, errhandler](const NewComm& share) {
                             *newcomm = install(*rank, errhandler, share, "pure_comm_idup");
                           });
    *request = handle_of(r);
  });
}

int pure_comm_split(PURE_Comm comm, int color, int key, PURE_Comm* newcomm) {
  return call("pure_comm_split", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    if (color < 0 && color != PURE_UNDEFINED)
      fail(PURE_ERR_ARG, "invalid color %d (must be >= 0 or PURE_UNDEFINED)", color);
    NewComm share = split(c, cm, "pure_comm_split", color, key);
    *newcomm = install(c.rank, cm.errhandler(), share, "pure_comm_split");
  });
}

int pure_comm_create(PURE_Comm comm, PURE_Group group, PURE_Comm* newcomm) {
  return call("pure_comm_create", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    const std::vector<int>& g = group_arg(c, group);
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (cm.rank_of(g[i]) < 0)
        fail(PURE_ERR_GROUP, "rank %zu of the group (process rank %d) is not in %s", i, g[i],
             cm.name().c_str());
    }
    const int pos = position(g, c.rank.world());
    NewComm share =
        split(c, cm, "pure_comm_create", pos == PURE_UNDEFINED ? PURE_UNDEFINED : 0, pos);
    *newcomm = install(c.rank, cm.errhandler(), share, "pure_comm_create");
  });
}

int pure_comm_free(PURE_Comm* comm) {
  return call("pure_comm_free", [&](Call& c) {
    if (!comm) fail(PURE_ERR_ARG, "null communicator pointer");
    comm_arg(c, *comm);
    if (*comm == PURE_COMM_WORLD || *comm == PURE_COMM_SELF)
      fail(PURE_ERR_COMM, "%s cannot be freed",
           *comm == PURE_COMM_WORLD ? "PURE_COMM_WORLD" : "PURE_COMM_SELF");
    c.errors = nullptr;  // the communicator is about to go
    c.rank.free_comm(*comm);
    *comm = PURE_COMM_NULL;
  });
}

int pure_comm_compare(PURE_Comm comm1, PURE_Comm comm2, int* result) {
  return call("pure_comm_compare", [&](Call& c) {
    Comm& a = comm_arg(c, comm1);
    Comm& b = comm_arg(c, comm2);
    if (!result) fail(PURE_ERR_ARG, "null result pointer");
    if (a.context() == b.context()) {
      *result = PURE_IDENT;
    } else {
      const int g = compare_members(a.members(), b.members());
      *result = g == PURE_IDENT ? PURE_CONGRUENT : g;
    }
  });
}

int pure_comm_group(PURE_Comm comm, PURE_Group* group) {
  return call("pure_comm_group", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!group) fail(PURE_ERR_ARG, "null group pointer");
    *group = add_group(c.rank, cm.group_ref());
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
    const std::string& name = cm.name();
    const std::size_t n = std::min<std::size_t>(name.size(), PURE_MAX_OBJECT_NAME - 1);
    std::memcpy(comm_name, name.data(), n);
    comm_name[n] = '\0';
    *resultlen = static_cast<int>(n);
  });
}

int pure_group_size(PURE_Group group, int* size) {
  return call("pure_group_size", [&](Call& c) {
    const std::vector<int>& g = group_arg(c, group);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = static_cast<int>(g.size());
  });
}

int pure_group_rank(PURE_Group group, int* rank) {
  return call("pure_group_rank", [&](Call& c) {
    const std::vector<int>& g = group_arg(c, group);
    if (!rank) fail(PURE_ERR_ARG, "null rank pointer");
    *rank = position(g, c.rank.world());
  });
}

int pure_group_incl(PURE_Group group, int n, const int ranks[], PURE_Group* newgroup) {
  return call("pure_group_incl", [&](Call& c) {
    const std::vector<int>& g = group_arg(c, group);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    group_ranks_arg(g, n, ranks);
    std::vector<int> members;
    for (int i = 0; i < n; ++i) members.push_back(g[static_cast<std::size_t>(ranks[i])]);
    *newgroup = add_group(c.rank, std::move(members));
  });
}

int pure_group_excl(PURE_Group group, int n, const int ranks[], PURE_Group* newgroup) {
  return call("pure_group_excl", [&](Call& c) {
    const std::vector<int>& g = group_arg(c, group);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    group_ranks_arg(g, n, ranks);
    std::vector<bool> drop(g.size(), false);
    for (int i = 0; i < n; ++i) drop[static_cast<std::size_t>(ranks[i])] = true;
    std::vector<int> members;
    for (std::size_t i = 0; i < g.size(); ++i)
      if (!drop[i]) members.push_back(g[i]);
    *newgroup = add_group(c.rank, std::move(members));
  });
}

int pure_group_translate_ranks(PURE_Group group1, int n, const int ranks1[], PURE_Group group2,
                               int ranks2[]) {
  return call("pure_group_translate_ranks", [&](Call& c) {
    const std::vector<int>& a = group_arg(c, group1);
    const std::vector<int>& b = group_arg(c, group2);
    if (n < 0) fail(PURE_ERR_ARG, "invalid number of ranks %d", n);
    if (n > 0 && (!ranks1 || !ranks2)) fail(PURE_ERR_ARG, "null rank array with n = %d", n);
    for (int i = 0; i < n; ++i) {
      if (ranks1[i] == PURE_PROC_NULL) {
        ranks2[i] = PURE_PROC_NULL;
        continue;
      }
      if (ranks1[i] < 0 || ranks1[i] >= static_cast<int>(a.size()))
        fail(PURE_ERR_RANK, "ranks1[%d] = %d is not a rank of group1 (size %zu)", i, ranks1[i],
             a.size());
      ranks2[i] = position(b, a[static_cast<std::size_t>(ranks1[i])]);
    }
  });
}

int pure_group_compare(PURE_Group group1, PURE_Group group2, int* result) {
  return call("pure_group_compare", [&](Call& c) {
    const std::vector<int>& a = group_arg(c, group1);
    const std::vector<int>& b = group_arg(c, group2);
    if (!result) fail(PURE_ERR_ARG, "null result pointer");
    *result = compare_members(a, b);
  });
}

int pure_group_free(PURE_Group* group) {
  return call("pure_group_free", [&](Call& c) {
    if (!group) fail(PURE_ERR_ARG, "null group pointer");
    group_arg(c, *group);
    if (*group != PURE_GROUP_EMPTY) c.rank.handles().groups.remove(*group);
    *group = PURE_GROUP_NULL;
  });
}

}  // extern "C"
