/* NAS DT: the three data-flow graphs of NPB 3.4 (README.md in this folder),
 * shared by every version.
 *
 *   BH ("black hole"): the sources feed comparators of in-degree up to 4,
 *       layer after layer, until at most 4 remain; those feed one sink.
 *   WH ("white hole"): BH mirrored: one source feeds comparators of
 *       out-degree up to 4, which feed the sinks.
 *   SH (shuffle): sources, log2(sources) - 1 layers of comparators and the
 *       sinks, all as wide as the sources; node i of a layer takes nodes i
 *       and i xor 2^j of the layer before (j = the layer's number, from 0).
 *
 * Nodes are numbered in topological order (every arc goes from a lower to a
 * higher number), arcs in the order they were made; a node's inputs are
 * taken, and its outputs sent, in arc order. Both orders are NPB's: the
 * filter and the reduction depend on the order of a node's inputs, and the
 * filter's weight on the node's number.
 *
 * Plain C that also compiles as C++, no state outside the arguments.
 */
#ifndef DT_GRAPH_H
#define DT_GRAPH_H

#include <string.h>

#include "dt_kernel.h"

/* Class B's shuffle graph, the largest, has 32 + 4 * 32 + 32 nodes. */
#define DT_MAX_NODES 192
#define DT_MAX_DEGREE 4

enum dt_kind { DT_SOURCE, DT_COMPARATOR, DT_SINK };
enum dt_graph_kind { DT_BH, DT_WH, DT_SH };

/* One end of an arc as a node sees it: the arc's number (its message tag)
 * and the node at the other end. */
struct dt_link {
  int arc;
  int node;
};

struct dt_node {
  enum dt_kind kind;
  int inputs;
  int outputs;
  struct dt_link in[DT_MAX_DEGREE];
  struct dt_link out[DT_MAX_DEGREE];
};

struct dt_graph {
  enum dt_graph_kind kind;
  int nodes;
  int arcs;
  struct dt_node node[DT_MAX_NODES];
};

/* "BH", "WH", "SH" */
static inline const char* dt_graph_name(enum dt_graph_kind kind) {
  return kind == DT_BH ? "BH" : kind == DT_WH ? "WH" : "SH";
}

/* Returns 1 and sets *kind when `name` is BH, WH or SH. */
static inline int dt_graph_lookup(const char* name, enum dt_graph_kind* kind) {
  for (int k = DT_BH; k <= DT_SH; ++k) {
    if (strcmp(name, dt_graph_name((enum dt_graph_kind)k)) == 0) {
      *kind = (enum dt_graph_kind)k;
      return 1;
    }
  }
  return 0;
}

static inline int dt_add_node(struct dt_graph* g, enum dt_kind kind) {
  struct dt_node* n = &g->node[g->nodes];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  return g->nodes++;
}

static inline void dt_add_arc(struct dt_graph* g, int tail, int head) {
  struct dt_node* t = &g->node[tail];
  struct dt_node* h = &g->node[head];
  t->out[t->outputs].arc = g->arcs;
  t->out[t->outputs++].node = head;
  h->in[h->inputs].arc = g->arcs;
  h->in[h->inputs++].node = tail;
  ++g->arcs;
}

/* The layers of comparators between `sources` nodes and the single far end
 * of BH or WH: each layer has ceil(previous / 4) nodes, until at most 4
 * remain. Makes the layers (node i of a layer joined to nodes 4i .. 4i+3 of
 * the layer before, as `toward_far_end` says) and returns the first node of
 * the last layer (or of the sources), whose `*last` nodes meet the far end. */
static inline int dt_add_funnel(struct dt_graph* g, int sources, int toward_far_end, int* last) {
  int first = 0, previous = sources;
  while (previous > DT_MAX_DEGREE) {
    const int layer = (previous + DT_MAX_DEGREE - 1) / DT_MAX_DEGREE;
    for (int i = 0; i < layer; ++i) {
      const int c = dt_add_node(g, DT_COMPARATOR);
      for (int j = 0; j < DT_MAX_DEGREE && i * DT_MAX_DEGREE + j < previous; ++j) {
        const int s = first + i * DT_MAX_DEGREE + j;
        if (toward_far_end) {
          dt_add_arc(g, s, c);
        } else {
          dt_add_arc(g, c, s);
        }
      }
    }
    first += previous;
    previous = layer;
  }
  *last = previous;
  return first;
}

/* Renumbers node v as nodes - 1 - v; arcs keep their numbers and every
 * node its order of inputs and outputs. */
static inline void dt_reverse_nodes(struct dt_graph* g) {
  for (int v = 0; v < g->nodes / 2; ++v) {
    const struct dt_node swap = g->node[v];
    g->node[v] = g->node[g->nodes - 1 - v];
    g->node[g->nodes - 1 - v] = swap;
  }
  for (int v = 0; v < g->nodes; ++v) {
    struct dt_node* n = &g->node[v];
    for (int i = 0; i < n->inputs; ++i) n->in[i].node = g->nodes - 1 - n->in[i].node;
    for (int o = 0; o < n->outputs; ++o) n->out[o].node = g->nodes - 1 - n->out[o].node;
  }
}

/* Builds graph `kind` of class c into *g. */
static inline void dt_graph_build(struct dt_graph* g, enum dt_graph_kind kind,
                                  const struct dt_class* c) {
  memset(g, 0, sizeof *g);
  g->kind = kind;
  const int n = c->sources;
  if (kind == DT_BH) {
    for (int i = 0; i < n; ++i) dt_add_node(g, DT_SOURCE);
    int last = 0;
    const int first = dt_add_funnel(g, n, 1, &last);
    const int sink = dt_add_node(g, DT_SINK);
    for (int i = 0; i < last; ++i) dt_add_arc(g, first + i, sink);
  } else if (kind == DT_WH) {
    /* NPB builds BH's shape from the sinks up, arcs pointing down, then
     * renumbers the nodes in reverse so that the source comes first. */
    for (int i = 0; i < n; ++i) dt_add_node(g, DT_SINK);
    int last = 0;
    const int first = dt_add_funnel(g, n, 0, &last);
    const int source = dt_add_node(g, DT_SOURCE);
    for (int i = 0; i < last; ++i) dt_add_arc(g, source, first + i);
    dt_reverse_nodes(g);
  } else {
    int layers = 0;
    for (int s = n >> 1; s > 1; s >>= 1) ++layers;
    for (int i = 0; i < n; ++i) dt_add_node(g, DT_SOURCE);
    for (int j = 0; j <= layers; ++j) {
      const int mask = 1 << j;
      const int first = j * n; /* the layer before */
      for (int i = 0; i < n; ++i) {
        const int v = dt_add_node(g, j < layers ? DT_COMPARATOR : DT_SINK);
        dt_add_arc(g, first + (i & ~mask), v);
        dt_add_arc(g, first + (i & ~mask) + mask, v);
      }
    }
  }
}

#endif /* DT_GRAPH_H */
