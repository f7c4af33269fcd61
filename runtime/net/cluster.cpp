#include "net/cluster.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/trace.h"
#include "net/outbox.h"
#include "pure/pure.h"

namespace pure {

namespace {
Cluster* g_cluster = nullptr;
bool g_mpi_started = false;

// Start-up found a problem that every process stops for; `report`: this is
// the one process that says what it is (in main_entry.cpp's format). It
// writes before any process may exit: once one exits non-zero, mpirun ends
// the others, and a reporter that was still on its way to writing lost its
// message (a test expecting it found none, on a loaded machine). So the
// reporter writes, everyone meets in a barrier, and then all end with a
// ConfigError without a message, which main() does not print again.
[[noreturn]] void fail_config(bool report, const std::string& problem) {
  if (report) {
    std::fprintf(stderr, "pure: invalid configuration:\n%s\n", problem.c_str());
    std::fflush(stderr);
  }
  mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", MpiFailure::report);
  mpi_check(MPI_Finalize(), "MPI_Finalize", MpiFailure::report);
  throw ConfigError(std::string());
}
}  // namespace

void mpi_check(int rc, const char* what, MpiFailure on_failure) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  if (on_failure == MpiFailure::report) {
    std::fprintf(stderr, "pure: %s failed: %.*s\n", what, len, text);
    return;
  }
  fail(PURE_ERR_INTERN, "%s failed: %.*s", what, len, text);
}

Cluster* Cluster::current() { return g_cluster; }

Cluster& Cluster::start(const Config& config) {
  if (g_mpi_started)
    throw ConfigError("PURE_PROCS=" + std::to_string(config.procs) +
                      ": a process runs at most one job of several processes (MPI cannot be "
                      "initialised twice)\n");
  g_mpi_started = true;
#ifdef OPEN_MPI
  // Open MPI 4.1's default one-sided component, osc/rdma, crashes over its
  // shared-memory transport (vader) in passive-target atomics
  // (MPI_Compare_and_swap segfaults in mca_btl_vader_emu_acswap), and
  // osc/pt2pt refuses MPI_THREAD_MULTIPLE: windows across processes use
  // the others (osc/ucx, and osc/sm for shared windows) unless the user
  // chose. Read by MPI_Init, which comes next; nothing runs concurrently.
  if (!std::getenv("OMPI_MCA_osc")) setenv("OMPI_MCA_osc", "^rdma,pt2pt", 0);
#endif
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    throw ConfigError("PURE_PROCS=" + std::to_string(config.procs) + ": MPI_Init_thread failed\n");
  // Errors come back as codes (mpi_check) instead of ending the process
  // with MPI's own message.
  mpi_check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  auto cluster = std::unique_ptr<Cluster>(new Cluster);
  int procs = 0;
  mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &cluster->me_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &procs), "MPI_Comm_size");

  // Every process checks what it can; the lowest failing one reports.
  std::string problem;
  if (provided < MPI_THREAD_MULTIPLE) {
    problem = "the MPI library provides thread level " + std::to_string(provided) +
              ", but Pure needs MPI_THREAD_MULTIPLE (" + std::to_string(MPI_THREAD_MULTIPLE) +
              "): every rank thread calls MPI";
  } else if (procs != config.procs) {
    problem = "PURE_PROCS=" + std::to_string(config.procs) + " but mpirun started " +
              std::to_string(procs) + " processes (launch with purerun)";
  } else {
    try {
      cluster->map_ = config.rank_map.empty()
                          ? RankMap::smp(config.ranks, config.procs)
                          : RankMap::from_file(config.rank_map, config.ranks, config.procs);
    } catch (const ConfigError& e) {
      problem = e.what();
      if (!problem.empty() && problem.back() == '\n') problem.pop_back();
    }
  }
  // Agreement: the same map everywhere (each process reads the file itself).
  if (problem.empty()) {
    unsigned long long mine = cluster->map_.fingerprint(), low = 0, high = 0;
    mpi_check(MPI_Allreduce(&mine, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD),
              "MPI_Allreduce");
    mpi_check(MPI_Allreduce(&mine, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD),
              "MPI_Allreduce");
    if (low != high)
      problem = "the processes disagree on the rank map (" + config.rank_map +
                " differs between them): every process must read the same file";
  } else {
    // Keep the collective calls matched: failing processes join with
    // values that cannot make a healthy process fail.
    unsigned long long zero = 0, sink = 0, ones = ~0ull;
    mpi_check(MPI_Allreduce(&ones, &sink, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD),
              "MPI_Allreduce");
    mpi_check(MPI_Allreduce(&zero, &sink, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD),
              "MPI_Allreduce");
  }
  int failing = problem.empty() ? procs : cluster->me_, first = procs;
  mpi_check(MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first != procs) fail_config(cluster->me_ == first, problem);

  void* attr = nullptr;
  int flag = 0;
  mpi_check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &attr, &flag), "MPI_Comm_get_attr");
  cluster->mpi_tag_ub_ = flag ? *static_cast<int*>(attr) : 32767;

  // Processes sharing a node take consecutive cores.
  MPI_Comm node = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, cluster->me_,
                                MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int mine = static_cast<int>(cluster->map_.ranks_of(cluster->me_).size()), before = 0;
  mpi_check(MPI_Exscan(&mine, &before, 1, MPI_INT, MPI_SUM, node), "MPI_Exscan");
  int node_rank = 0;
  mpi_check(MPI_Comm_rank(node, &node_rank), "MPI_Comm_rank");
  cluster->node_offset_ = node_rank == 0 ? 0 : before;
  mpi_check(MPI_Allreduce(&mine, &cluster->node_ranks_, 1, MPI_INT, MPI_SUM, node),
            "MPI_Allreduce");
  const std::vector<int>& own = cluster->map_.ranks_of(cluster->me_);
  int lowest = own.empty() ? INT_MAX : *std::min_element(own.begin(), own.end());
  mpi_check(MPI_Allreduce(&lowest, &cluster->node_first_, 1, MPI_INT, MPI_MIN, node),
            "MPI_Allreduce");
  mpi_check(MPI_Comm_free(&node), "MPI_Comm_free");

  // Trace clocks: every process reads its clock as it leaves one barrier;
  // process 0's reading is the common origin.
  mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  std::int64_t mine_ns = static_cast<std::int64_t>(trace::monotonic_ns());
  std::int64_t first_ns = mine_ns;
  mpi_check(MPI_Bcast(&first_ns, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  cluster->clock_offset_ns_ = mine_ns - first_ns;
  cluster->stall_vote_ = std::make_unique<StallVote>(MPI_COMM_WORLD);
  if (config.stats || !config.trace_path.empty())
    cluster->abort_notice_ = std::make_unique<AbortNotice>(MPI_COMM_WORLD);

  g_cluster = cluster.release();
  return *g_cluster;
}

void Cluster::poke() {
  // Pure sends nothing on MPI_COMM_WORLD itself: the probe finds nothing,
  // but MPI progresses everything on the way.
  int flag = 0;
  mpi_check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE),
            "MPI_Iprobe");
}

std::vector<std::string> Cluster::gather_to_first(const std::string& text) {
  int procs = 0;
  mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &procs), "MPI_Comm_size");
  // Sizes first, then the texts; each fits an int (a trace part of over
  // 2 GiB is refused with a clear error rather than truncated).
  if (text.size() > static_cast<std::size_t>(INT_MAX))
    fail(PURE_ERR_INTERN, "process %d: %zu bytes to gather, over MPI's int count", me_, text.size());
  int size = static_cast<int>(text.size());
  std::vector<int> sizes(me_ == 0 ? static_cast<std::size_t>(procs) : 0);
  mpi_check(MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD),
            "MPI_Gather");
  std::vector<int> displs(sizes.size());
  long long total = 0;
  for (std::size_t p = 0; p < sizes.size(); ++p) {
    displs[p] = static_cast<int>(total);
    total += sizes[p];
    if (total > INT_MAX) fail(PURE_ERR_INTERN, "%lld bytes to gather, over MPI's int count", total);
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  mpi_check(MPI_Gatherv(text.data(), size, MPI_CHAR, all.data(), sizes.data(), displs.data(),
                        MPI_CHAR, 0, MPI_COMM_WORLD),
            "MPI_Gatherv");
  std::vector<std::string> parts;
  for (std::size_t p = 0; p < sizes.size(); ++p)
    parts.push_back(all.substr(static_cast<std::size_t>(displs[p]), static_cast<std::size_t>(sizes[p])));
  return parts;
}

void Cluster::abort(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  // The launcher reads our output through pipes and may tear everything
  // down as soon as MPI_Abort reaches it (MPICH's Hydra did, losing the
  // message that says why). Wait, boundedly, until it has read what we wrote.
  for (int fd : {1, 2}) {
    for (int i = 0; i < 500; ++i) {
      int unread = 0;
      if (ioctl(fd, FIONREAD, &unread) != 0 || unread == 0) break;  // not a pipe, or drained
      usleep(1000);
    }
  }
  mpi_check(MPI_Abort(MPI_COMM_WORLD, code), "MPI_Abort", MpiFailure::report);
  std::_Exit(code);  // MPI_Abort does not return; if it did, end this process anyway
}

void Cluster::finalize() {
  if (finalized_) return;
  finalized_ = true;
  stall_vote_.reset();
  abort_notice_.reset();
  Outbox::finish_all();
  mpi_check(MPI_Finalize(), "MPI_Finalize", MpiFailure::report);
  Outbox::release_after_finalize();
}

}  // namespace pure
