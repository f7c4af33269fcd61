#include "net/rank_map.h"

#include <fstream>
#include <sstream>

#include "pure/run.hpp"

namespace pure {

RankMap RankMap::from_procs(std::vector<int> proc_of, int procs, const std::string& origin) {
  RankMap m;
  m.ranks_of_.resize(static_cast<std::size_t>(procs));
  m.local_of_.resize(proc_of.size());
  for (std::size_t r = 0; r < proc_of.size(); ++r) {
    auto& mine = m.ranks_of_[static_cast<std::size_t>(proc_of[r])];
    m.local_of_[r] = static_cast<int>(mine.size());
    mine.push_back(static_cast<int>(r));
  }
  for (int p = 0; p < procs; ++p) {
    const auto& mine = m.ranks_of_[static_cast<std::size_t>(p)];
    if (mine.empty())
      throw ConfigError(origin + ": process " + std::to_string(p) + " of " +
                        std::to_string(procs) + " gets no rank\n");
    if (static_cast<int>(mine.size()) > m.max_per_proc_) m.max_per_proc_ = static_cast<int>(mine.size());
  }
  m.proc_of_ = std::move(proc_of);
  return m;
}

RankMap RankMap::single(int ranks) {
  return from_procs(std::vector<int>(static_cast<std::size_t>(ranks), 0), 1, "single process");
}

RankMap RankMap::smp(int ranks, int procs) {
  const int per = (ranks + procs - 1) / procs;
  std::vector<int> proc_of(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) proc_of[static_cast<std::size_t>(r)] = r / per;
  return from_procs(std::move(proc_of), procs,
                    "PURE_RANKS=" + std::to_string(ranks) + " over PURE_PROCS=" +
                        std::to_string(procs) + " (" + std::to_string(per) + " ranks per process)");
}

RankMap RankMap::from_file(const std::string& path, int ranks, int procs) {
  std::ifstream in(path);
  if (!in) throw ConfigError("PURE_RANK_MAP=" + path + ": cannot read the rank-map file\n");
  const std::string origin = "rank map " + path;
  std::vector<int> proc_of;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      std::size_t used = 0;
      long p = -1;
      try {
        p = std::stol(w, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != w.size() || p < 0)
        throw ConfigError(origin + ":" + std::to_string(line_no) + ": '" + w +
                          "' is not a process number\n");
      if (p >= procs)
        throw ConfigError(origin + ":" + std::to_string(line_no) + ": rank " +
                          std::to_string(proc_of.size()) + " is placed on process " + w +
                          " but the job has " + std::to_string(procs) + " processes\n");
      proc_of.push_back(static_cast<int>(p));
    }
  }
  if (static_cast<int>(proc_of.size()) != ranks)
    throw ConfigError(origin + ": places " + std::to_string(proc_of.size()) +
                      " ranks but the job has " + std::to_string(ranks) + "\n");
  return from_procs(std::move(proc_of), procs, origin);
}

std::uint64_t RankMap::fingerprint() const {
  // FNV-1a over the process of every rank.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(static_cast<std::uint64_t>(procs()));
  for (int p : proc_of_) mix(static_cast<std::uint64_t>(p));
  return h;
}

}  // namespace pure
