// Flat API: groups -- a communicator's group, sizes and ranks, translation
// and comparison, and the group algebra (incl, excl, ranges, union,
// intersection, difference). Groups are local objects: nothing here
// communicates.
#include <algorithm>
#include <vector>

#include "api/call.h"

using namespace pure;
using namespace pure::api;

namespace {

const std::vector<int>& members_arg(Call& c, PURE_Group handle) {
  return group_arg(c, handle)->members();
}

PURE_Group add_group(Rank& rank, std::vector<int> members) {
  if (members.empty()) return PURE_GROUP_EMPTY;
  return rank.handles().groups.add(std::make_shared<const Group>(std::move(members)));
}

PURE_Group add_group(Rank& rank, const GroupRef& group) {
  if (group->size() == 0) return PURE_GROUP_EMPTY;
  return rank.handles().groups.add(group);
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

// The ranks n triples (first, last, stride) denote, in order, each a rank
// of a group of `size` and none twice.
std::vector<int> range_ranks(int size, int n, int ranges[][3]) {
  if (n < 0) fail(PURE_ERR_ARG, "invalid number of ranges %d", n);
  if (n > 0 && !ranges) fail(PURE_ERR_ARG, "null range array with n = %d", n);
  std::vector<int> ranks;
  std::vector<bool> seen(static_cast<std::size_t>(size), false);
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) fail(PURE_ERR_ARG, "ranges[%d] has stride 0", i);
    if (first < 0 || first >= size || last < 0 || last >= size)
      fail(PURE_ERR_RANK, "ranges[%d] = (%d, %d, %d) names a rank outside the group (size %d)",
           i, first, last, stride, size);
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
      fail(PURE_ERR_ARG, "ranges[%d] = (%d, %d, %d) never reaches its last rank", i, first, last,
           stride);
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
      if (seen[static_cast<std::size_t>(r)])
        fail(PURE_ERR_RANK, "rank %lld appears twice in the ranges (again in ranges[%d])", r, i);
      seen[static_cast<std::size_t>(r)] = true;
      ranks.push_back(static_cast<int>(r));
    }
  }
  return ranks;
}

PURE_Group excluding(Rank& rank, const std::vector<int>& g, const std::vector<int>& drop_ranks) {
  std::vector<bool> drop(g.size(), false);
  for (int r : drop_ranks) drop[static_cast<std::size_t>(r)] = true;
  std::vector<int> members;
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!drop[i]) members.push_back(g[i]);
  return add_group(rank, std::move(members));
}

template <class Pick>
int set_operation(const char* name, PURE_Group group1, PURE_Group group2, PURE_Group* newgroup,
                  Pick&& pick) {
  return call(name, [&](Call& c) {
    const Group& a = *group_arg(c, group1);
    const Group& b = *group_arg(c, group2);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    std::vector<int> members = pick(a, b);
    *newgroup = add_group(c.rank, std::move(members));
  });
}

}  // namespace

extern "C" {

int pure_comm_group(PURE_Comm comm, PURE_Group* group) {
  return call("pure_comm_group", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!group) fail(PURE_ERR_ARG, "null group pointer");
    *group = add_group(c.rank, cm.group_ref());
  });
}

int pure_group_size(PURE_Group group, int* size) {
  return call("pure_group_size", [&](Call& c) {
    const std::vector<int>& g = members_arg(c, group);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = static_cast<int>(g.size());
  });
}

int pure_group_rank(PURE_Group group, int* rank) {
  return call("pure_group_rank", [&](Call& c) {
    const std::vector<int>& g = members_arg(c, group);
    if (!rank) fail(PURE_ERR_ARG, "null rank pointer");
    *rank = position(g, c.rank.world());
  });
}

int pure_group_incl(PURE_Group group, int n, const int ranks[], PURE_Group* newgroup) {
  return call("pure_group_incl", [&](Call& c) {
    const std::vector<int>& g = members_arg(c, group);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    group_ranks_arg(g, n, ranks);
    std::vector<int> members;
    for (int i = 0; i < n; ++i) members.push_back(g[static_cast<std::size_t>(ranks[i])]);
    *newgroup = add_group(c.rank, std::move(members));
  });
}

int pure_group_excl(PURE_Group group, int n, const int ranks[], PURE_Group* newgroup) {
  return call("pure_group_excl", [&](Call& c) {
    const std::vector<int>& g = members_arg(c, group);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    group_ranks_arg(g, n, ranks);
    *newgroup = excluding(c.rank, g, std::vector<int>(ranks, ranks + n));
  });
}

int pure_group_range_incl(PURE_Group group, int n, int ranges[][3], PURE_Group* newgroup) {
  return call("pure_group_range_incl", [&](Call& c) {
    const std::vector<int>& g = members_arg(c, group);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    std::vector<int> members;
    for (int r : range_ranks(static_cast<int>(g.size()), n, ranges))
      members.push_back(g[static_cast<std::size_t>(r)]);
    *newgroup = add_group(c.rank, std::move(members));
  });
}

int pure_group_range_excl(PURE_Group group, int n, int ranges[][3], PURE_Group* newgroup) {
  return call("pure_group_range_excl", [&](Call& c) {
    const std::vector<int>& g = members_arg(c, group);
    if (!newgroup) fail(PURE_ERR_ARG, "null newgroup pointer");
    *newgroup = excluding(c.rank, g, range_ranks(static_cast<int>(g.size()), n, ranges));
  });
}

// Union: group1's members, then group2's that are not in group1, each in
// its group's order. Intersection and difference keep group1's order.
int pure_group_union(PURE_Group group1, PURE_Group group2, PURE_Group* newgroup) {
  return set_operation("pure_group_union", group1, group2, newgroup,
                       [](const Group& a, const Group& b) {
                         std::vector<int> out(a.members());
                         for (int w : b.members())
                           if (a.rank_of(w) < 0) out.push_back(w);
                         return out;
                       });
}

int pure_group_intersection(PURE_Group group1, PURE_Group group2, PURE_Group* newgroup) {
  return set_operation("pure_group_intersection", group1, group2, newgroup,
                       [](const Group& a, const Group& b) {
                         std::vector<int> out;
                         for (int w : a.members())
                           if (b.rank_of(w) >= 0) out.push_back(w);
                         return out;
                       });
}

int pure_group_difference(PURE_Group group1, PURE_Group group2, PURE_Group* newgroup) {
  return set_operation("pure_group_difference", group1, group2, newgroup,
                       [](const Group& a, const Group& b) {
                         std::vector<int> out;
                         for (int w : a.members())
                           if (b.rank_of(w) < 0) out.push_back(w);
                         return out;
                       });
}

int pure_group_translate_ranks(PURE_Group group1, int n, const int ranks1[], PURE_Group group2,
                               int ranks2[]) {
  return call("pure_group_translate_ranks", [&](Call& c) {
    const std::vector<int>& a = members_arg(c, group1);
    const GroupRef& b = group_arg(c, group2);
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
      const int r = b->rank_of(a[static_cast<std::size_t>(ranks1[i])]);
      ranks2[i] = r < 0 ? PURE_UNDEFINED : r;
    }
  });
}

int pure_group_compare(PURE_Group group1, PURE_Group group2, int* result) {
  return call("pure_group_compare", [&](Call& c) {
    const std::vector<int>& a = members_arg(c, group1);
    const std::vector<int>& b = members_arg(c, group2);
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
