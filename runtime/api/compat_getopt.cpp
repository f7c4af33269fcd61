// The C library stand-ins of pure/compat.h, part 5: getopt, getopt_long and
// getopt_long_only with their state per rank.
//
// glibc keeps getopt's position in hidden static data, so ranks that are
// threads would share one scan: the first rank to finish leaves optind at
// the end and the others parse nothing. This is an implementation of
// glibc's documented behaviour on per-rank state (compat_state.h), so that
// every rank gets exactly what a separate process gets from glibc:
//
//  * GNU permutation: options anywhere in argv are found, and the
//    non-options they passed end up after them, in order, with optind at
//    the first; "--" ends the options. '+' first in optstring (or
//    POSIXLY_CORRECT in the rank's environment, or the strict-POSIX
//    getopt) stops at the first non-option; '-' returns each non-option as
//    the argument of option 1. ':' first silences the messages and reports
//    a missing argument as ':'.
//  * "x:" takes an argument, attached or the next element; "x::" an
//    optional one, attached only; "W;" makes "-W foo" mean "--foo".
//  * Long options may be abbreviated to any unique prefix; "--name=value"
//    or, for a required argument, the next element; getopt_long_only also
//    accepts "-name", unless it is one valid short option.
//  * glibc's messages, with argv[0], on the rank's stderr.
//
// tests/compat_libc_test.cpp compares every result, optind, optarg,
// optopt, the permuted argv and the messages with glibc's own getopt, over
// many argument vectors, in many ranks at once.
#include <getopt.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "api/compat_state.h"
#include "pure/compat.h"

namespace pure::compat {
namespace {

class Scanner {
 public:
  Scanner(Getopt& g, int argc, char** argv, const char* optstring, const option* longopts,
          int* longindex, bool long_only, bool posixly_correct)
      : g_(g),
        argc_(argc),
        argv_(argv),
        opts_(optstring),
        longopts_(longopts),
        longindex_(longindex),
        long_only_(long_only),
        posixly_correct_(posixly_correct) {}

  int next() {
    if (argc_ < 1) return -1;
    g_.optarg = nullptr;
    if (g_.index == 0 || !g_.initialized) {
      start();
    } else if (opts_[0] == '-' || opts_[0] == '+') {
      ++opts_;
    }
    print_ = g_.opterr != 0 && opts_[0] != ':';
    if (!g_.nextchar || *g_.nextchar == '\0') {
      const int r = next_element();
      if (r != kOption) return r;
    }
    return short_option();
  }

 private:
  static constexpr int kOption = -2;  // next_element found an option to scan

  bool non_option(int i) const { return argv_[i][0] != '-' || argv_[i][1] == '\0'; }

  void start() {
    if (g_.index == 0) g_.index = 1;
    g_.first_nonopt = g_.last_nonopt = g_.index;
    g_.nextchar = nullptr;
    if (opts_[0] == '-') {
      g_.ordering = Getopt::return_in_order;
      ++opts_;
    } else if (opts_[0] == '+') {
      g_.ordering = Getopt::require_order;
      ++opts_;
    } else if (posixly_correct_ || pure_getenv("POSIXLY_CORRECT")) {
      g_.ordering = Getopt::require_order;
    } else {
      g_.ordering = Getopt::permute;
    }
    g_.initialized = true;
  }

  // The non-options passed so far, [first_nonopt, last_nonopt), go after
  // the options found since, [last_nonopt, index); each keeps its order.
  void move_nonoptions_back() {
    std::rotate(argv_ + g_.first_nonopt, argv_ + g_.last_nonopt, argv_ + g_.index);
    g_.first_nonopt += g_.index - g_.last_nonopt;
    g_.last_nonopt = g_.index;
  }

  // Moves on to the next element of argv: -1 at the end of the options, 1
  // for a non-option returned in order, a long option's result, or kOption
  // with nextchar at the short options of the element.
  int next_element() {
    // The caller may have moved optind back (or changed argv).
    g_.last_nonopt = std::min(g_.last_nonopt, g_.index);
    g_.first_nonopt = std::min(g_.first_nonopt, g_.index);
    if (g_.ordering == Getopt::permute) {
      if (g_.first_nonopt != g_.last_nonopt && g_.last_nonopt != g_.index)
        move_nonoptions_back();
      else if (g_.last_nonopt != g_.index)
        g_.first_nonopt = g_.index;
      while (g_.index < argc_ && non_option(g_.index)) ++g_.index;
      g_.last_nonopt = g_.index;
    }
    if (g_.index != argc_ && std::strcmp(argv_[g_.index], "--") == 0) {
      // Ends the options: passed over like an option, everything after
      // it counts as non-options.
      ++g_.index;
      if (g_.first_nonopt != g_.last_nonopt && g_.last_nonopt != g_.index)
        move_nonoptions_back();
      else if (g_.first_nonopt == g_.last_nonopt)
        g_.first_nonopt = g_.index;
      g_.last_nonopt = argc_;
      g_.index = argc_;
    }
    if (g_.index == argc_) {
      // optind goes back to the non-options passed, for the caller.
      if (g_.first_nonopt != g_.last_nonopt) g_.index = g_.first_nonopt;
      return -1;
    }
    if (non_option(g_.index)) {
      if (g_.ordering == Getopt::require_order) return -1;
      g_.optarg = argv_[g_.index++];
      return 1;
    }
    if (longopts_) {
      if (argv_[g_.index][1] == '-') {
        g_.nextchar = argv_[g_.index] + 2;
        return long_option("--", long_only_);
      }
      // getopt_long_only: "-name" is a long option, except for a lone
      // valid short option "-x" (else -x could not be given at all).
      if (long_only_ && (argv_[g_.index][2] || !std::strchr(opts_, argv_[g_.index][1]))) {
        g_.nextchar = argv_[g_.index] + 1;
        const int r = long_option("-", true);
        if (r != -1) return r;
      }
    }
    g_.nextchar = argv_[g_.index] + 1;
    return kOption;
  }

  void message(const char* format, const char* prefix, const char* name) {
    if (print_) std::fprintf(pure_stderr(), format, argv_[0], prefix, name);
  }

  // nextchar is at a long option's name (after "--", "-" or "-W "):
  // consumes it. -1 when getopt_long_only should read it as short options.
  int long_option(const char* prefix, bool long_only) {
    const char* name = g_.nextchar;
    const char* name_end = name;
    while (*name_end && *name_end != '=') ++name_end;
    const auto length = static_cast<size_t>(name_end - name);

    int count = 0;  // the options, and an exact match if there is one
    const option* found = nullptr;
    int found_index = -1;
    for (const option* p = longopts_; p->name; ++p, ++count) {
      if (std::strncmp(p->name, name, length) == 0 && std::strlen(p->name) == length) {
        found = p;
        found_index = count;
        break;
      }
    }
    if (!found) {
      // An abbreviation: ambiguous when two options it abbreviates differ
      // (for getopt_long_only, whenever there are two).
      std::vector<bool> candidates;
      for (int i = 0; longopts_[i].name; ++i) {
        const option& p = longopts_[i];
        if (std::strncmp(p.name, name, length) != 0) continue;
        if (!found) {
          found = &p;
          found_index = i;
        } else if (long_only || found->has_arg != p.has_arg || found->flag != p.flag ||
                   found->val != p.val) {
          if (candidates.empty()) {
            candidates.assign(static_cast<size_t>(count), false);
            candidates[static_cast<size_t>(found_index)] = true;
          }
          candidates[static_cast<size_t>(i)] = true;
        }
      }
      if (!candidates.empty()) {
        if (print_) {
          FILE* err = pure_stderr();
          flockfile(err);
          std::fprintf(err, "%s: option '%s%s' is ambiguous; possibilities:", argv_[0], prefix,
                       name);
          for (int i = 0; i < count; ++i)
            if (candidates[static_cast<size_t>(i)])
              std::fprintf(err, " '%s%s'", prefix, longopts_[i].name);
          std::fprintf(err, "\n");
          funlockfile(err);
        }
        g_.nextchar += std::strlen(g_.nextchar);
        ++g_.index;
        g_.optopt = 0;
        return '?';
      }
    }
    if (!found) {
      if (!long_only || argv_[g_.index][1] == '-' || !std::strchr(opts_, *g_.nextchar)) {
        message("%s: unrecognized option '%s%s'\n", prefix, g_.nextchar);
        g_.nextchar = nullptr;
        ++g_.index;
        g_.optopt = 0;
        return '?';
      }
      return -1;  // getopt_long_only: short options after all
    }

    ++g_.index;
    g_.nextchar = nullptr;
    if (*name_end) {  // "name=value"
      if (found->has_arg) {
        g_.optarg = const_cast<char*>(name_end + 1);
      } else {
        message("%s: option '%s%s' doesn't allow an argument\n", prefix, found->name);
        g_.optopt = found->val;
        return '?';
      }
    } else if (found->has_arg == required_argument) {
      if (g_.index < argc_) {
        g_.optarg = argv_[g_.index++];
      } else {
        message("%s: option '%s%s' requires an argument\n", prefix, found->name);
        g_.optopt = found->val;
        return opts_[0] == ':' ? ':' : '?';
      }
    }
    if (longindex_) *longindex_ = found_index;
    if (found->flag) {
      *found->flag = found->val;
      return 0;
    }
    return found->val;
  }

  int missing_argument(char c) {
    if (print_)
      std::fprintf(pure_stderr(), "%s: option requires an argument -- '%c'\n", argv_[0], c);
    g_.optopt = c;  // a char, sign-extended as glibc's
    return opts_[0] == ':' ? ':' : '?';
  }

  int short_option() {
    const char c = *g_.nextchar++;
    const char* spec = std::strchr(opts_, c);
    if (*g_.nextchar == '\0') ++g_.index;  // the element's last character
    if (!spec || c == ':' || c == ';') {
      if (print_) std::fprintf(pure_stderr(), "%s: invalid option -- '%c'\n", argv_[0], c);
      g_.optopt = c;
      return '?';
    }
    if (spec[0] == 'W' && spec[1] == ';' && longopts_) {
      // -W foo is --foo.
      if (*g_.nextchar != '\0') {
        g_.optarg = g_.nextchar;
      } else if (g_.index == argc_) {
        return missing_argument(c);
      } else {
        g_.optarg = argv_[g_.index];
      }
      g_.nextchar = g_.optarg;
      g_.optarg = nullptr;
      return long_option("-W ", false);
    }
    if (spec[1] == ':') {
      if (spec[2] == ':') {  // optional: attached only
        if (*g_.nextchar != '\0') {
          g_.optarg = g_.nextchar;
          ++g_.index;
        } else {
          g_.optarg = nullptr;
        }
      } else if (*g_.nextchar != '\0') {  // required, attached
        g_.optarg = g_.nextchar;
        ++g_.index;
      } else if (g_.index == argc_) {
        g_.nextchar = nullptr;
        return missing_argument(c);
      } else {  // required, the next element
        g_.optarg = argv_[g_.index++];
      }
      g_.nextchar = nullptr;
    }
    return c;
  }

  Getopt& g_;
  const int argc_;
  char** const argv_;
  const char* opts_;
  const option* const longopts_;
  int* const longindex_;
  const bool long_only_;
  const bool posixly_correct_;
  bool print_ = true;
};

// The program's optind and opterr go in, optind, optarg and optopt come out,
// as glibc copies between its globals and its hidden state.
int run(int argc, char* const* argv, const char* optstring, const option* longopts,
        int* longindex, bool long_only, bool posixly_correct) {
  Getopt& g = rank_libc().getopt;
  g.index = g.optind;
  g.optopt = g.scan_optopt;
  Scanner scan(g, argc, const_cast<char**>(argv), optstring, longopts, longindex, long_only,
               posixly_correct);
  const int r = scan.next();
  g.optind = g.index;
  g.scan_optopt = g.optopt;
  return r;
}

}  // namespace
}  // namespace pure::compat

extern "C" {

int pure_getopt(int argc, char* const* argv, const char* optstring) {
  return pure::compat::run(argc, argv, optstring, nullptr, nullptr, false, false);
}

int pure_getopt_posix(int argc, char* const* argv, const char* optstring) {
  return pure::compat::run(argc, argv, optstring, nullptr, nullptr, false, true);
}

int pure_getopt_long(int argc, char* const* argv, const char* optstring,
                     const struct option* longopts, int* longindex) {
  return pure::compat::run(argc, argv, optstring, longopts, longindex, false, false);
}

int pure_getopt_long_only(int argc, char* const* argv, const char* optstring,
                          const struct option* longopts, int* longindex) {
  return pure::compat::run(argc, argv, optstring, longopts, longindex, true, false);
}

int* pure_optind(void) { return &pure::compat::rank_libc().getopt.optind; }
char** pure_optarg(void) { return &pure::compat::rank_libc().getopt.optarg; }
int* pure_opterr(void) { return &pure::compat::rank_libc().getopt.opterr; }
int* pure_optopt(void) { return &pure::compat::rank_libc().getopt.optopt; }

}  // extern "C"
