// How exit(0) ends one rank (pure/compat.h): pure_exit(0) throws RankExit,
// and every job's entry is wrapped by with_rank_exit, which turns it back
// into "pure_main returned 0".
#pragma once

#include "pure/run.hpp"

namespace pure {

// Deliberately not an Error or std::exception, so that user code catching
// those does not swallow an exit.
struct RankExit {};

RankMain with_rank_exit(RankMain entry);

}  // namespace pure
