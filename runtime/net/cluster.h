// Cluster: this process's part of a job of several processes (PURE_PROCS > 1),
// which talk through MPI. A single-process job never creates one and never
// touches MPI.
//
// MPI is initialised once per OS process with MPI_THREAD_MULTIPLE (every
// rank thread calls MPI itself: sends, matched probes, and the MPI_Test
// calls that drive progress from the wait loop) and finalised when the job
// ends. At start the processes check that MPI gave them the thread level,
// that the job's shape matches mpirun's, and that they all read the same
// rank map; any failure is one clear ConfigError, reported by the lowest
// failing process only.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pure/run.hpp"
#include "net/abort_notice.h"
#include "net/rank_map.h"
#include "net/stall_vote.h"

namespace pure {

class Cluster {
 public:
  // The first call initialises MPI and agrees on the rank map; later calls
  // in the same process fail (MPI cannot be initialised twice).
  static Cluster& start(const Config& config);
  // The running cluster, or nullptr in a single-process job.
  static Cluster* current();

  const RankMap& map() const { return map_; }
  int me() const { return me_; }  // this process: its rank in MPI_COMM_WORLD
  // World ranks of the processes before this one on the same node, so that
  // ranks of several processes on one node pin to different cores.
  int node_offset() const { return node_offset_; }
  // The ranks of every process on this node (this one's included): whether
  // the node's cores are shared is decided on them, not on one process's.
  int node_ranks() const { return node_ranks_; }
  // The lowest world rank on this node: what names the node's group
  // (MPI_COMM_TYPE_SHARED groups the ranks of every process on a node).
  int node_first() const { return node_first_; }

  // MPI's own MPI_TAG_UB, for tags the runtime chooses itself (a
  // program's tags never reach MPI: they travel in records, net/outbox.h).
  int mpi_tag_ub() const { return mpi_tag_ub_; }

  // Lets MPI make progress on whatever it holds for this process (a
  // passive-target operation from another process may need it): one cheap
  // MPI call that runs MPI's progress engine.
  static void poke();
  // This process's CLOCK_MONOTONIC minus process 0's, measured at start
  // right after a barrier: subtracted from this process's trace times so
  // that every process's events share process 0's time line.
  std::int64_t clock_offset_ns() const { return clock_offset_ns_; }

  // Collective over every process, once all rank threads of this one have
  // ended (blocking MPI, outside any wait loop): process 0 gets every
  // process's `text` in process order, the others an empty vector. For
  // what each process contributes to the job's trace and statistics.
  std::vector<std::string> gather_to_first(const std::string& text);

  // The processes' agreement on whether the whole job is stalled, for the
  // deadlock watchdog (a communicator of its own, created at start).
  StallVote& stall_vote() { return *stall_vote_; }
  // How an aborting process tells the others to write their part of the
  // trace and statistics first; nullptr when the job writes neither.
  AbortNotice* abort_notice() { return abort_notice_.get(); }

  // Ends every process of the job (MPI_Abort on MPI_COMM_WORLD).
  [[noreturn]] void abort(int code);
  // MPI_Finalize, once every rank thread of this process has finished.
  void finalize();
  bool finalized() const { return finalized_; }

 private:
  Cluster() = default;
  RankMap map_;
  int me_ = 0;
  int node_offset_ = 0;
  int node_ranks_ = 0;
  int node_first_ = 0;
  int mpi_tag_ub_ = 0;
  std::int64_t clock_offset_ns_ = 0;
  std::unique_ptr<StallVote> stall_vote_;
  std::unique_ptr<AbortNotice> abort_notice_;
  bool finalized_ = false;
};

// What mpi_check does with a failure: throw Error(PURE_ERR_INTERN), or
// (where nothing may throw: destructors, paths that are failing already)
// print the same message on stderr and go on.
enum class MpiFailure { throw_error, report };

// The one check of every MPI return code: on failure, the message names the
// MPI call and gives MPI's own description of the error.
void mpi_check(int rc, const char* what, MpiFailure on_failure = MpiFailure::throw_error);

}  // namespace pure
