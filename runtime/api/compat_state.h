// The C library state that a process keeps once and ranks keep each
// (pure/compat.h): the generators' state, getopt's cursor, the static
// buffers that functions return, the environment, the working directory,
// the output streams. One RankLibc per rank, created on the rank's first
// call and ended when the rank ends (job/rank_globals.h); every thread the
// rank starts uses its rank's, as the threads of a process share their
// process's. Threads that belong to no rank share one for the process.
//
// What glibc locks, this locks (rand, the environment, the locale); what
// glibc leaves to the caller (getopt, strtok, drand48), this does too.
#pragma once

#include <netdb.h>
#include <pwd.h>
#include <grp.h>
#include <search.h>
#include <stdlib.h>
#include <stdio.h>
#include <wchar.h>

#include <cstdint>
#include <ostream>
#include <ctime>
#include <locale.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pure::compat {

// getopt's state: what the program sees (optind, optarg, ...) and the
// cursor glibc keeps hidden, as in glibc's struct _getopt_data.
struct Getopt {
  int optind = 1;
  int opterr = 1;
  int optopt = '?';
  char* optarg = nullptr;
  // The scan in progress.
  int index = 0;  // where the scan is; optind between calls
  // glibc's hidden optopt starts at 0 and is copied to optopt after every
  // call: a program that reads optopt after a successful first call sees 0,
  // not the initial '?'.
  int scan_optopt = 0;
  char* nextchar = nullptr;
  enum Ordering { require_order, permute, return_in_order } ordering = permute;
  int first_nonopt = 0;
  int last_nonopt = 0;
  bool initialized = false;
};

// The environment as this rank changed it: names it set (owning the
// "NAME=value" text, or borrowing a putenv string) or removed; the rest is
// the process's.
struct Environment {
  struct Entry {
    std::string text;              // "NAME=value" when owned
    char* borrowed = nullptr;      // a putenv string, when not
    bool removed = false;
    const char* value() const;     // after the '='; nullptr when removed
    const char* whole() const;     // the NAME=value text
  };
  bool cleared = false;            // clearenv: the process's is gone too
  std::map<std::string, Entry> changed;
  std::vector<char*> array;        // what environ shows, rebuilt on demand
  char** array_base = nullptr;     // the array's data when last built
  bool stale = true;
};

// A rank's stdout or stderr (compat_stdio.cpp): a stream of the C library
// whose writes arrive here, and go on to the process's stream a whole line
// at a time.
struct RankStream {
  FILE* file = nullptr;    // what the rank writes to: the stream, or what freopen opened
  FILE* cookie = nullptr;  // the stream itself
  FILE* target = nullptr;  // the process's stdout or stderr
  std::string pending;     // the line being written
  int mode = _IOLBF;       // setvbuf's: _IONBF passes everything on at once
  bool closed = false;     // fclose'd: writes fail, as on a closed stream
  ~RankStream();
};

struct RankLibc {
  explicit RankLibc(int world) : world(world) {}
  ~RankLibc();
  RankLibc(const RankLibc&) = delete;
  RankLibc& operator=(const RankLibc&) = delete;

  const int world;  // -1 for the process's own
  std::mutex mutex;

  // rand/random: glibc's TYPE_3 generator, seed 1 until seeded.
  random_data rand_data{};  // must start zeroed for initstate_r
  alignas(std::int32_t) char rand_state[128] = {};
  bool rand_ready = false;
  // drand48 and friends: all zero, as glibc's own before any seeding.
  drand48_data drand{};
  int signgam = 0;
  Getopt getopt;

  // Static buffers, one per rank.
  char* strtok_save = nullptr;
  std::tm tm_buffer{};
  char time_text[64] = {};
  char error_text[256] = {};
  char inet_text[16] = {};
  char l64a_text[8] = {};
  char ecvt_text[512] = {};
  char fcvt_text[1024] = {};
  char tmpnam_text[L_tmpnam] = {};
  char ctermid_text[L_ctermid] = {};
  char tty_text[256] = {};
  char login_text[256] = {};
  char pts_text[256] = {};
  mbstate_t mbtowc_state{};
  mbstate_t wctomb_state{};
  passwd pw{};
  group gr{};
  hostent host{};
  // What pw, gr and host point into, one buffer each.
  std::vector<char> pw_buffer, gr_buffer, host_buffer;
  hsearch_data table{};
  bool table_made = false;
  locale_t locale = nullptr;  // set by setlocale in this rank; else the process's
  lconv conventions{};
  std::string locale_name;

  Environment env;
  int cwd = -1;  // this rank's working directory (an O_PATH descriptor); -1: the process's

  std::unique_ptr<RankStream> out;  // stdout, stderr
  std::unique_ptr<RankStream> err;
  std::unique_ptr<std::ostream> cout, cerr, clog;  // over out and err
};

// The calling thread's rank's state (the process's on other threads).
RankLibc& rank_libc();

// Flushes the rank's output streams (compat_stdio.cpp), for exit paths.
void flush_rank_streams(RankLibc& libc);

// `path` as the process can open it: a relative path starts from the
// rank's working directory once it has one of its own (compat_files.cpp).
std::string rank_path(RankLibc& libc, const char* path);

}  // namespace pure::compat
