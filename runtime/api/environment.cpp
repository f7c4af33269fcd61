// Flat API: init/finalize, abort, clocks, and the rank/size queries.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "api/call.h"
#include "api/compat_state.h"
#include "api/windows.h"
#include "collectives/call_log.h"
#include "composite/route.h"
#include "job/process.h"
#include "net/hierarchical.h"

// Declared in pure/mpi_names.h, whose start-up constructor must not be part
// of the runtime itself.
extern "C" void pure_report_mpi_names(void);

using namespace pure;
using namespace pure::api;

namespace {

int do_init(const char* name, int required, int* provided) {
  return call(
      name,
      [&](Call& c) {
        if (c.rank.state() != Rank::State::created)
          fail(PURE_ERR_OTHER, "%s", c.rank.state() == Rank::State::running
                                         ? "already initialised"
                                         : "cannot initialise again after pure_finalize");
        // Ranks are threads, and only a rank's own thread may call Pure:
        // that is FUNNELED, whatever more the caller asks for.
        int level = required < PURE_THREAD_FUNNELED ? required : PURE_THREAD_FUNNELED;
        if (required < PURE_THREAD_SINGLE || required > PURE_THREAD_MULTIPLE)
          fail(PURE_ERR_ARG, "invalid thread level %d", required);
        c.rank.set_thread_level(level);
        if (provided) *provided = level;
        static const char* const kLevels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                              "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
        c.rank.handles().infos.find(PURE_INFO_ENV)->set("thread_level", kLevels[level]);
        c.rank.set_state(Rank::State::running);
      },
      false);
}

}  // namespace

extern "C" {

int pure_init(int*, char***) { return do_init("pure_init", PURE_THREAD_SINGLE, nullptr); }

int pure_init_thread(int*, char***, int required, int* provided) {
  return do_init("pure_init_thread", required, provided);
}

int pure_query_thread(int* provided) {
  return call("pure_query_thread", [&](Call& c) {
    if (!provided) fail(PURE_ERR_ARG, "null pointer for the provided level");
    *provided = c.rank.thread_level();
  });
}

int pure_is_thread_main(int* flag) {
  return call("pure_is_thread_main", [&](Call&) {
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    *flag = 1;  // only rank threads get this far
  });
}

int pure_initialized(int* flag) {
  return call(
      "pure_initialized",
      [&](Call& c) {
        if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
        *flag = c.rank.state() != Rank::State::created;
      },
      false);
}

int pure_finalized(int* flag) {
  return call(
      "pure_finalized",
      [&](Call& c) {
        if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
        *flag = c.rank.state() == Rank::State::finalized;
      },
      false);
}

int pure_finalize(void) {
  return call("pure_finalize", [&](Call& c) {
    // First the attributes of PURE_COMM_SELF, then PURE_COMM_WORLD's, the
    // last set first: programs hang clean-up on them (MPI 2.2 and on).
    for (PURE_Comm comm : {PURE_COMM_SELF, PURE_COMM_WORLD}) {
      Comm& cm = *c.rank.comm(comm);
      if (const int err = delete_attributes(c.rank.handles().keyvals, cm.attributes(), comm))
        throw Error(err, "an attribute delete callback of " + cm.name() + " returned error " +
                             std::to_string(err));
    }
    // Finish what MPI lets a program leave behind: buffered sends still in
    // flight and requests freed while active, receives too (their messages
    // may still be on the way). Unfinished receives the program still holds
    // are its error, reported rather than left to hang.
    c.rank.bsend_buffer().flush(c.rank.p2p());
    c.rank.wait_until(
        [&] { return c.rank.p2p().pending_sends() == 0 && c.rank.p2p().freed_receives() == 0; },
        WaitSite{"pure_finalize", -1, -1});
    if (std::size_t n = c.rank.p2p().pending_receives())
      fail(PURE_ERR_PENDING, "%zu receive(s) still pending at finalize", n);
    finish_pgas(c);
    // Collective, as MPI implementations make it: no rank leaves finalize
    // before every rank of the job has entered it, so a rank that ends right
    // after (with any exit status) never cuts short another's work before
    // its finalize (job/process.cpp decides the job's status at the end).
    Comm& world = *c.rank.comm(PURE_COMM_WORLD);
    if (world.spans_processes()) {
      // The processes meet on the runtime's own communicator: on the
      // world's, a program's collective against this finalize would meet
      // it inside MPI (an error there, or a barrier passed by mistake).
      coll::record_call(world, "pure_finalize");
      hier::barrier_among(c.rank.member(), world, "pure_finalize", *c.rank.process().service_net());
    } else {
      route::barrier(c.rank.member(), world, "pure_finalize");
    }
    // The symmetric heap goes (collective; no rank uses it after the barrier).
    c.rank.onesided().free_heap("pure_finalize");
    // Every rank's last calls on the world are logged now: a mismatch that
    // passed unnoticed (a bcast root leaves at once; a barrier may meet
    // another collective's round) is reported rather than ending in silence.
    coll::check_calls(world);
    c.rank.set_state(Rank::State::finalized);
  });
}

int pure_abort(PURE_Comm comm, int errorcode) {
  return call("pure_abort", [&](Call& c) {
    comm_arg(c, comm);
    // As exit() does: what the rank printed is out before the job ends.
    compat::flush_rank_streams(compat::rank_libc());
    std::fflush(nullptr);
    end_job(c.rank, "pure_abort", errorcode,
          "called with error code " + std::to_string(errorcode) + "; ending the job");
  });
}

double pure_wtime(void) {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double pure_wtick(void) {
  using namespace std::chrono;
  return static_cast<double>(steady_clock::period::num) / steady_clock::period::den;
}

int pure_get_version(int* version, int* subversion) {
  if (version) *version = PURE_VERSION;
  if (subversion) *subversion = PURE_SUBVERSION;
  return PURE_SUCCESS;
}

int pure_get_library_version(char* version, int* resultlen) {
  // Like pure_get_version, callable before init and after finalize.
  if (!version || !resultlen) return PURE_ERR_ARG;
  static constexpr char text[] = "Pure " PURE_PROJECT_VERSION
      ": MPI 3.1 with MPI-4 large counts, ranks as threads; between processes over "
      PURE_MPI_NAME;
  static_assert(sizeof text <= PURE_MAX_LIBRARY_VERSION_STRING,
                "the version text fits the buffer MPI promises");
  std::snprintf(version, PURE_MAX_LIBRARY_VERSION_STRING, "%s", text);
  *resultlen = static_cast<int>(std::strlen(version));
  return PURE_SUCCESS;
}

int pure_get_processor_name(char* name, int* resultlen) {
  return call("pure_get_processor_name", [&](Call&) {
    if (!name || !resultlen) fail(PURE_ERR_ARG, "null name or length pointer");
    if (gethostname(name, PURE_MAX_PROCESSOR_NAME) != 0) std::strcpy(name, "localhost");
    name[PURE_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = static_cast<int>(std::strlen(name));
  });
}

void pure_report_mpi_names(void) { report_in_mpi_names(); }

int pure_get_address(const void* location, PURE_Aint* address) {
  if (!address) return PURE_ERR_ARG;
  *address = reinterpret_cast<PURE_Aint>(location);
  return PURE_SUCCESS;
}

int pure_comm_rank(PURE_Comm comm, int* rank) {
  return call("pure_comm_rank", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!rank) fail(PURE_ERR_ARG, "null rank pointer");
    *rank = cm.rank();
  });
}

int pure_comm_size(PURE_Comm comm, int* size) {
  return call("pure_comm_size", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = cm.size();
  });
}

}  // extern "C"
