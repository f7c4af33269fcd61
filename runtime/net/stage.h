// Stage: one member's part of a hierarchical collective (hierarchical.cpp,
// split.cpp): the local view, the MPI side, whether this member is its
// process's leader, and the steps every hierarchical collective is built of.
// Internal to the net layer.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/handle.h"
#include "collectives/collectives.h"
#include "net/cluster.h"
#include "net/comm_net.h"

namespace pure::hier {

inline const Datatype& byte_type() { return *Datatype::predefined(handle_index(PURE_BYTE)); }

inline char* at(void* base, long long displ, const Datatype& type) {
  return static_cast<char*>(base) + displ * static_cast<long long>(type.extent());
}
inline const char* at(const void* base, long long displ, const Datatype& type) {
  return static_cast<const char*>(base) + displ * static_cast<long long>(type.extent());
}

inline int mpi_count(std::size_t bytes, const char* call) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    fail(PURE_ERR_COUNT, "%s: %zu bytes between processes is over MPI's limit of %d", call, bytes,
         INT_MAX);
  return static_cast<int>(bytes);
}

// One member's part of a hierarchical collective, on communicator `comm`.
struct Stage {
  coll::Member& member;
  Comm& comm;
  Comm& local;
  CommNet& net;
  const char* call;
  bool leader;
  int procs;

  Stage(coll::Member& m, Comm& c, const char* name)
      : member(m), comm(c), local(c.local()), net(net_of(c)), call(name),
        leader(c.local().rank() == 0), procs(static_cast<int>(net_of(c).procs.size())) {}

  // Runs a started non-blocking MPI operation to completion in the wait loop.
  void wait(MPI_Request& req) {
    int done = 0;
    mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    member.wait_until(
        [&] {
          mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
          return done != 0;
        },
        WaitSite{call, -1, -1, true});
  }

  // Every member hands the leader a pointer; the leader gets them in local
  // rank order (the others get an empty vector).
  template <class T>
  std::vector<T*> to_leader(T* mine) {
    const int n = local.size();
    std::vector<T*> all(leader ? static_cast<std::size_t>(n) : 0);
    std::vector<int> counts(static_cast<std::size_t>(n), static_cast<int>(sizeof(T*)));
    std::vector<int> displs(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) displs[static_cast<std::size_t>(i)] = i * static_cast<int>(sizeof(T*));
    coll::gatherv(member, local, call, &mine, sizeof(T*), &byte_type(), all.data(), counts.data(),
            displs.data(), &byte_type(), 0);
    // Every member has arrived: none still reads the last collective's error.
    if (leader) net.error.clear();
    return all;
  }

  // The leader is done with the members' buffers; its error, if any, is
  // every member's.
  void from_leader() {
    int failed = leader && !net.error.empty();
    coll::bcast(member, local, call, &failed, sizeof failed, byte_type(), 0);
    if (failed) fail(PURE_ERR_TRUNCATE, "%s", net.error.c_str());
  }

  void mismatch(std::size_t sbytes, std::size_t rbytes, int from, int to) {
    if (sbytes != rbytes && net.error.empty())
      net.error = "rank " + std::to_string(from) + " sends " + std::to_string(sbytes) +
                  " bytes but rank " + std::to_string(to) + " expects " + std::to_string(rbytes) +
                  " (send and receive counts and types must match)";
  }

  // Blob exchanges among the leaders, each in two MPI collectives: the
  // sizes, then the bytes. allgather: every leader's blob to every leader;
  // returns them per process (position in CommNet::procs).
  std::vector<std::vector<char>> allgather(const std::vector<char>& mine) {
    std::uint64_t n = mine.size();
    std::vector<std::uint64_t> sizes(static_cast<std::size_t>(procs));
    MPI_Request req;
    mpi_check(MPI_Iallgather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, net.coll, &req),
              "MPI_Iallgather");
    wait(req);
    std::vector<int> counts(static_cast<std::size_t>(procs)), displs(static_cast<std::size_t>(procs));
    std::size_t total = 0;
    for (int p = 0; p < procs; ++p) {
      counts[static_cast<std::size_t>(p)] = mpi_count(sizes[static_cast<std::size_t>(p)], call);
      displs[static_cast<std::size_t>(p)] = mpi_count(total, call);
      total += sizes[static_cast<std::size_t>(p)];
    }
    std::vector<char> all(total ? total : 1);
    mpi_check(MPI_Iallgatherv(mine.data(), mpi_count(mine.size(), call), MPI_BYTE, all.data(),
                              counts.data(), displs.data(), MPI_BYTE, net.coll, &req),
              "MPI_Iallgatherv");
    wait(req);
    return split_blobs(all, counts, displs);
  }
  // The same towards one process (`root_pos`); others get nothing back.
  std::vector<std::vector<char>> gather(const std::vector<char>& mine, int root_pos) {
    const bool root = net.my_pos == root_pos;
    std::uint64_t n = mine.size();
    std::vector<std::uint64_t> sizes(static_cast<std::size_t>(procs));
    MPI_Request req;
    mpi_check(MPI_Igather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, root_pos, net.coll,
                          &req),
              "MPI_Igather");
    wait(req);
    std::vector<int> counts(static_cast<std::size_t>(procs)), displs(static_cast<std::size_t>(procs));
    std::size_t total = 0;
    for (int p = 0; root && p < procs; ++p) {
      counts[static_cast<std::size_t>(p)] = mpi_count(sizes[static_cast<std::size_t>(p)], call);
      displs[static_cast<std::size_t>(p)] = mpi_count(total, call);
      total += sizes[static_cast<std::size_t>(p)];
    }
    std::vector<char> all(total ? total : 1);
    mpi_check(MPI_Igatherv(mine.data(), mpi_count(mine.size(), call), MPI_BYTE, all.data(),
                           counts.data(), displs.data(), MPI_BYTE, root_pos, net.coll, &req),
              "MPI_Igatherv");
    wait(req);
    if (!root) return {};
    return split_blobs(all, counts, displs);
  }
  // Blob p of `out` to process p; returns the blob from each process.
  std::vector<std::vector<char>> alltoall(const std::vector<std::vector<char>>& out) {
    std::vector<std::uint64_t> ssizes(static_cast<std::size_t>(procs)), rsizes(ssizes.size());
    for (int p = 0; p < procs; ++p) ssizes[static_cast<std::size_t>(p)] = out[static_cast<std::size_t>(p)].size();
    MPI_Request req;
    mpi_check(MPI_Ialltoall(ssizes.data(), 1, MPI_UINT64_T, rsizes.data(), 1, MPI_UINT64_T,
                            net.coll, &req),
              "MPI_Ialltoall");
    wait(req);
    std::vector<int> sc(ssizes.size()), sd(ssizes.size()), rc(ssizes.size()), rd(ssizes.size());
    std::size_t stotal = 0, rtotal = 0;
    for (std::size_t p = 0; p < ssizes.size(); ++p) {
      sc[p] = mpi_count(ssizes[p], call);
      sd[p] = mpi_count(stotal, call);
      stotal += ssizes[p];
      rc[p] = mpi_count(rsizes[p], call);
      rd[p] = mpi_count(rtotal, call);
      rtotal += rsizes[p];
    }
    std::vector<char> send(stotal ? stotal : 1), recv(rtotal ? rtotal : 1);
    for (std::size_t p = 0; p < ssizes.size(); ++p)
      if (ssizes[p]) std::memcpy(send.data() + sd[p], out[p].data(), ssizes[p]);
    mpi_check(MPI_Ialltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, recv.data(), rc.data(),
                             rd.data(), MPI_BYTE, net.coll, &req),
              "MPI_Ialltoallv");
    wait(req);
    return split_blobs(recv, rc, rd);
  }

  static std::vector<std::vector<char>> split_blobs(const std::vector<char>& all,
                                                    const std::vector<int>& counts,
                                                    const std::vector<int>& displs) {
    std::vector<std::vector<char>> blobs(counts.size());
    for (std::size_t p = 0; p < counts.size(); ++p)
      blobs[p].assign(all.begin() + displs[p], all.begin() + displs[p] + counts[p]);
    return blobs;
  }
};

}  // namespace pure::hier
