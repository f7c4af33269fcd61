// Intercommunicators: two disjoint groups, where point-to-point ranks name
// the other group and collectives move data from one group to the other.
//
// Each is built of communicators its members of both groups make together:
// the bridge, a hidden intracommunicator of both groups (the first group,
// the one holding the lowest world rank, then the second), on which its
// collectives and its creations run; each group's own intracommunicator
// (hidden), for the stages of a collective inside one group; and its own
// context and MPI side (a duplicate of the bridge laid out the same way,
// Comm::set_remote_group) for the program's point-to-point messages.
//
// The creations take the caller's arguments already validated; what only
// shows when the members' arguments meet is an Error on every member.
#pragma once

#include <cstddef>
#include <memory>

#include "collectives/collectives.h"
#include "comm/comm.h"
#include "composite/context.h"

namespace pure::inter {

// MPI_Intercomm_create: `peer` is used at the local leader only (nullptr
// elsewhere). The leaders exchange their groups on `peer` with `tag`.
std::unique_ptr<Comm> create(Context& cx, Comm& local_comm, int local_leader, Comm* peer,
                             int remote_leader, int tag, const char* call);
// MPI_Intercomm_merge: the group passing high = false first (the first
// group first when both pass the same).
std::unique_ptr<Comm> merge(Context& cx, Comm& inter, bool high, const char* call);
// MPI_Comm_dup of an intercommunicator.
std::unique_ptr<Comm> dup(Context& cx, Comm& inter, const char* call);
// The intercommunicator on ready parts, made by the caller as duplicates of
// `inter`'s (MPI_Comm_idup): a new bridge, the group's own communicator and
// a communicator of the bridge's members for the program's messages.
std::unique_ptr<Comm> assemble_dup(const Comm& inter, std::unique_ptr<Comm> bridge,
                                   std::unique_ptr<Comm> group, std::unique_ptr<Comm> messages,
                                   const char* call);
// MPI_Comm_split of an intercommunicator (MPI_Comm_create: one colour, the
// key the position in the group): the members of each colour in either
// group, ordered by (key, rank); nullptr for PURE_UNDEFINED and where the
// other group has no member of the colour.
std::unique_ptr<Comm> split(Context& cx, Comm& inter, int color, int key, const char* call);

// ---- collectives (inter_collectives.cpp) ----
// `root`: PURE_ROOT at the root, PURE_PROC_NULL at the other members of its
// group, the root's rank in the other group at the members of that group.
void barrier(Context& cx, Comm& ic, const char* call);
void bcast(Context& cx, Comm& ic, const char* call, void* buf, std::size_t count,
           const TypeRef& type, int root);
// a.send is the member's input; the result (of the other group's inputs)
// lands in a.recv at the root, or at every member for allreduce (root -1).
void reduce(Context& cx, Comm& ic, const coll::ReduceArgs& a, int root);
// recvcounts: this group's, as MPI gives them; a.count their sum.
void reduce_scatter(Context& cx, Comm& ic, const coll::ReduceArgs& a, const int* recvcounts);
// Counts and displacements of the other group's members, in extents.
void gatherv(Context& cx, Comm& ic, const char* call, const void* send, std::size_t scount,
             const TypeRef& stype, void* recv, const int* rcounts, const int* displs,
             const TypeRef& rtype, int root);
void scatterv(Context& cx, Comm& ic, const char* call, const void* send, const int* scounts,
              const int* displs, const TypeRef& stype, void* recv, std::size_t rcount,
              const TypeRef& rtype, int root);
void allgatherv(Context& cx, Comm& ic, const char* call, const void* send, std::size_t scount,
                const TypeRef& stype, void* recv, const int* rcounts, const int* displs,
                const TypeRef& rtype);
void alltoallv(Context& cx, Comm& ic, const char* call, const void* send, const int* scounts,
               const int* sdispls, const TypeRef& stype, void* recv, const int* rcounts,
               const int* rdispls, const TypeRef& rtype);

}  // namespace pure::inter
