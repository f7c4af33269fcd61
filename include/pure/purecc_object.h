/* Included by purecc and pure++ into every file they compile: it marks the
 * object as one whose globals the translator made per rank. purecc's link
 * looks for the mark in the objects and libraries it is given, and refuses
 * or warns about those without it (tools/purecc, "what it links").
 *
 * Like mpi_names.h, this header includes nothing. */
#ifndef PURE_PURECC_OBJECT_H
#define PURE_PURECC_OBJECT_H

static const char pure_purecc_translated __attribute__((used, unused)) = 1;

#endif /* PURE_PURECC_OBJECT_H */
