/* NAS DT (Data Traffic), NPB 3.4, as a plain MPI program written from the
 * benchmark's definition (README.md in this folder).
 *
 * A data-flow graph (BH, WH or SH) of sources, comparators and sinks; node v
 * runs on rank v. A source generates a feature array and sends it along its
 * arcs; a comparator filters an array of zeros with each input in turn,
 * normalises the result and sends it on; a sink reduces its inputs to a
 * checksum, which rank 0 sums into the L2 norm that NPB verifies. Every
 * array travels as two messages on the arc's tag: its length, then its
 * values.
 *
 * One source, built twice: with Open MPI (dt_mpi, processes) and ported by
 * the translator (dt_pure, rank threads). Ranks may be threads, so there are
 * no mutable globals.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "dt_graph.h"
#include "dt_kernel.h"
#include "dt_options.h"

/* A feature array: len doubles (4 per sample). */
struct array {
  int len;
  double* val;
};

/* Ends the job when an MPI call fails (only reached where the error handler
 * returns instead of aborting). */
static void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "dt: %s failed with error %d\n", call, rc);
    MPI_Abort(MPI_COMM_WORLD, rc);
  }
}

static double* allocate(int len) {
  double* val = malloc((size_t)len * sizeof(double));
  if (val == NULL) {
    fprintf(stderr, "dt: out of memory for %d values\n", len);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return val;
}

/* Stretches a to len values. */
static void resample(struct array* a, int len) {
  double* val = allocate(len);
  dt_resample_range(a->val, a->len, val, len, 0, len);
  free(a->val);
  a->val = val;
  a->len = len;
}

static void send_array(const struct array* a, int rank, int tag) {
  check(MPI_Send(&a->len, 1, MPI_INT, rank, tag, MPI_COMM_WORLD), "MPI_Send");
  check(MPI_Send(a->val, a->len, MPI_DOUBLE, rank, tag, MPI_COMM_WORLD), "MPI_Send");
}

/* Receives an array into *a, which owns no values before. */
static void recv_array(struct array* a, int rank, int tag) {
  check(MPI_Recv(&a->len, 1, MPI_INT, rank, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
  a->val = allocate(a->len);
  check(MPI_Recv(a->val, a->len, MPI_DOUBLE, rank, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
}

static void send_outputs(const struct dt_node* n, const struct array* a) {
  for (int o = 0; o < n->outputs; ++o) send_array(a, n->out[o].node, n->out[o].arc);
}

/* Source node v: its feature array, sent along every arc. */
static void run_source(const struct dt_class* c, const struct dt_node* n, int v) {
  const struct dt_features f = dt_features_of(c, v);
  struct array a = {f.samples * DT_FIELD_DIM, NULL};
  a.val = allocate(a.len);
  dt_features_fill(&f, a.val, 0, f.samples);
  send_outputs(n, &a);
  free(a.val);
}

/* Comparator node v: an array of the class's mean length, all zeros,
 * filtered with each input in arc order (the shorter of the two stretched to
 * the longer), then normalised and sent on. */
static void run_comparator(const struct dt_class* c, const struct dt_node* n, int v) {
  struct array result = {c->samples * DT_FIELD_DIM, NULL};
  result.val = calloc((size_t)result.len, sizeof(double));
  if (result.val == NULL) {
    fprintf(stderr, "dt: out of memory for %d values\n", result.len);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i < n->inputs; ++i) {
    struct array input;
    recv_array(&input, n->in[i].node, n->in[i].arc);
    if (result.len < input.len) resample(&result, input.len);
    if (result.len > input.len) resample(&input, result.len);
    dt_filter_range(result.val, input.val, 1, result.len / DT_FIELD_DIM - 1, dt_filter_weight(v));
    free(input.val);
  }
  dt_normalize_range(result.val, 0, result.len, n->inputs);
  send_outputs(n, &result);
  free(result.val);
}

/* Sink node v: the measures of its inputs, combined into its checksum. */
static double run_sink(const struct dt_node* n, int v) {
  double measures = 0.0;
  for (int i = 0; i < n->inputs; ++i) {
    struct array input;
    recv_array(&input, n->in[i].node, n->in[i].arc);
    measures += dt_reduce(input.val, input.len, v + 1);
    free(input.val);
  }
  return dt_sink_checksum(measures, n->inputs, v);
}

int main(int argc, char** argv) {
  int rank = 0, ranks = 0;
  check(MPI_Init(&argc, &argv), "MPI_Init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");

  struct dt_options options;
  char error[256] = "";
  int parsed = dt_parse_options(argc, argv, &options, error, sizeof error);
  struct dt_graph* graph = malloc(sizeof *graph);
  if (graph == NULL) {
    fprintf(stderr, "dt: out of memory for the graph\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  if (parsed == 0) {
    dt_graph_build(graph, options.graph, &options.cls);
    if (graph->nodes > ranks) {
      snprintf(error, sizeof error, "graph %s.%c has %d nodes, more than the %d ranks",
               dt_graph_name(options.graph), options.cls.name, graph->nodes, ranks);
      parsed = 2;
    }
  }
  if (parsed != 0) {
    if (rank == 0 && parsed == 2) fprintf(stderr, "dt: %s\n%s", error, DT_USAGE);
    if (rank == 0 && parsed == 1) printf("%s", DT_USAGE);
    free(graph);
    check(MPI_Finalize(), "MPI_Finalize");
    return parsed == 1 ? 0 : 2;
  }

  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double began = MPI_Wtime();
  if (rank < graph->nodes) {
    const struct dt_node* n = &graph->node[rank];
    if (n->kind == DT_SOURCE) {
      run_source(&options.cls, n, rank);
    } else if (n->kind == DT_COMPARATOR) {
      run_comparator(&options.cls, n, rank);
    } else {
      /* checksums travel on tags past the arcs' */
      const double checksum = run_sink(n, rank);
      check(MPI_Send(&checksum, 1, MPI_DOUBLE, 0, graph->arcs + rank, MPI_COMM_WORLD), "MPI_Send");
    }
  }
  double l2 = 0.0;
  if (rank == 0) {
    for (int v = 0; v < graph->nodes; ++v) {
      if (graph->node[v].kind != DT_SINK) continue;
      double checksum = 0.0;
      check(
          MPI_Recv(&checksum, 1, MPI_DOUBLE, v, graph->arcs + v, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv");
      l2 += checksum;
    }
  }
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double seconds = MPI_Wtime() - began;
  if (rank == 0) dt_print_result(&options, l2, seconds);

  free(graph);
  check(MPI_Finalize(), "MPI_Finalize");
  return 0;
}
