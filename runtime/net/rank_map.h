// RankMap: where every rank of the job lives -- its process, and its index
// among the rank threads of that process ("local index"). Ranks are numbered
// 0..ranks()-1 across the whole job (the world ranks); a process runs its
// ranks in increasing world order, so local index i of process p is
// ranks_of(p)[i]. A single-process job has the identity map.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pure {

class RankMap {
 public:
  // One process holding every rank.
  static RankMap single(int ranks);
  // SMP-style: rank r in process r / ceil(ranks / procs). Throws ConfigError
  // when some process would get no rank.
  static RankMap smp(int ranks, int procs);
  // From a rank-map file: whitespace-separated process numbers, the i-th
  // being the process of rank i; '#' starts a comment. Throws ConfigError
  // naming the file, the line and the bad value.
  static RankMap from_file(const std::string& path, int ranks, int procs);

  int ranks() const { return static_cast<int>(proc_of_.size()); }
  int procs() const { return static_cast<int>(ranks_of_.size()); }
  int proc_of(int rank) const { return proc_of_[static_cast<std::size_t>(rank)]; }
  int local_of(int rank) const { return local_of_[static_cast<std::size_t>(rank)]; }
  const std::vector<int>& ranks_of(int proc) const { return ranks_of_[static_cast<std::size_t>(proc)]; }
  // The most ranks any one process holds.
  int max_per_proc() const { return max_per_proc_; }
  // Equal for equal maps; the processes compare it at start.
  std::uint64_t fingerprint() const;

 private:
  static RankMap from_procs(std::vector<int> proc_of, int procs, const std::string& origin);
  std::vector<int> proc_of_;
  std::vector<int> local_of_;
  std::vector<std::vector<int>> ranks_of_;
  int max_per_proc_ = 0;
};

}  // namespace pure
