/* NAS DT: the command line and the result line, shared by every version.
 *
 * Plain C that also compiles as C++; no state outside the arguments (the
 * ranks may be threads of one process, each parsing the same argv).
 */
#ifndef DT_OPTIONS_H
#define DT_OPTIONS_H

#include <stdio.h>
#include <string.h>

#include "dt_graph.h"
#include "dt_kernel.h"

#define DT_USAGE                                                                  \
  "usage: dt CLASS GRAPH\n"                                                       \
  "  CLASS  S, W, A or B (NPB's problem classes)\n"                               \
  "  GRAPH  BH (black hole: sources funnel into one sink), WH (white hole: one\n" \
  "         source fans out to the sinks) or SH (shuffle)\n"                      \
  "Needs at least as many ranks as the graph has nodes (S: 5 BH/WH, 12 SH;\n"     \
  "W: 11, 32; A: 21, 80; B: 43, 192); ranks beyond them are idle.\n"

struct dt_options {
  struct dt_class cls;
  enum dt_graph_kind graph;
};

/* Fills *o from argv. Returns 0 when the options are valid, 1 for --help,
 * 2 with a message in `error` otherwise. */
static inline int dt_parse_options(int argc, char** argv, struct dt_options* o, char* error,
                                   size_t error_size) {
  if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) return 1;
  if (argc != 3) {
    snprintf(error, error_size, "expected 2 arguments, CLASS and GRAPH; got %d", argc - 1);
    return 2;
  }
  if (strlen(argv[1]) != 1 || !dt_class_lookup(argv[1][0], &o->cls)) {
    snprintf(error, error_size, "unknown class '%s'", argv[1]);
    return 2;
  }
  if (!dt_graph_lookup(argv[2], &o->graph)) {
    snprintf(error, error_size, "unknown graph '%s'", argv[2]);
    return 2;
  }
  return 0;
}

/* The result line, printed by rank 0; tools and tests parse it. The L2
 * norm is an integer held in a double: %.17g prints it exactly. */
static inline void dt_print_result(const struct dt_options* o, double l2, double seconds) {
  printf("DT %s.%c l2=%.17g verified=%s time_s=%.6f\n", dt_graph_name(o->graph), o->cls.name, l2,
         dt_verified(l2, o->cls.verify[o->graph]) ? "yes" : "no", seconds);
  fflush(stdout);
}

#endif /* DT_OPTIONS_H */
