// The run-time settings: read from the environment and validated from the
// one table (runtime/job/settings.cpp), one clear line per bad value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness.h"
#include "job/settings.h"
#include "pure/run.hpp"

namespace pure_testing {
namespace {

testing::AssertionResult mentions(const std::string& text, const std::vector<std::string>& needles) {
  for (const std::string& n : needles)
    if (text.find(n) == std::string::npos)
      return testing::AssertionFailure() << "\"" << n << "\" missing from:\n" << text;
  return testing::AssertionSuccess();
}

std::string config_error() {
  try {
    pure::Config::from_env();
  } catch (const pure::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, ValidSettingsAreRead) {
  CleanPureEnvironment clean;
  setenv("PURE_RANKS", "3", 1);
  setenv("PURE_BIND", "none", 1);
  setenv("PURE_EAGER_LIMIT", "16K", 1);
  setenv("PURE_QUEUE_SLOTS", "4", 1);
  setenv("PURE_WAIT", "park", 1);
  setenv("PURE_DEADLOCK_TIMEOUT", "0.5", 1);
  setenv("PURE_ABORT_GRACE", "2", 1);
  setenv("PURE_REDUCE_PARTITION", "4K", 1);
  setenv("PURE_FIBERS", "off", 1);
  const pure::Config c = pure::Config::from_env();
  EXPECT_EQ(c.ranks, 3);
  EXPECT_EQ(c.bind, pure::Bind::none);
  EXPECT_EQ(c.eager_limit, 16384u);
  EXPECT_EQ(c.queue_slots, 4);
  EXPECT_EQ(c.wait, pure::WaitMode::park);
  EXPECT_EQ(c.deadlock_timeout_s, 0.5);
  EXPECT_EQ(c.abort_grace_s, 2.0);
  EXPECT_EQ(c.reduce_partition, 4096u);
  EXPECT_FALSE(c.fibers);
}

TEST(Config, DefaultsWithoutSettings) {
  CleanPureEnvironment clean;
  const pure::Config c = pure::Config::from_env();
  EXPECT_EQ(c.ranks, 0);
  EXPECT_EQ(c.bind, pure::Bind::core);
  EXPECT_EQ(c.eager_limit, 8192u);
  EXPECT_EQ(c.queue_slots, 16);
  EXPECT_EQ(c.reduce_partition, pure::kReducePartitionAuto);
  EXPECT_TRUE(c.fibers);
}

TEST(Config, FibersOnIsAuto) {
  CleanPureEnvironment clean;
  setenv("PURE_FIBERS", "on", 1);
  EXPECT_TRUE(pure::Config::from_env().fibers);
  setenv("PURE_FIBERS", "off", 1);
  EXPECT_FALSE(pure::Config::from_env().fibers);
}

TEST(Config, EveryBadValueIsNamed) {
  CleanPureEnvironment clean;
  setenv("PURE_RANKS", "abc", 1);
  setenv("PURE_BIND", "socket", 1);
  setenv("PURE_EAGER_LIMIT", "12Q", 1);
  setenv("PURE_FOO", "1", 1);
  setenv("PURE_WAIT", "sometimes", 1);
  setenv("PURE_REDUCE_PARTITION", "-1", 1);
  setenv("PURE_FIBERS", "always", 1);
  const std::string err = config_error();
  EXPECT_TRUE(mentions(err, {"PURE_RANKS=abc", "PURE_BIND=socket", "PURE_EAGER_LIMIT=12Q",
                             "PURE_FOO", "PURE_WAIT=sometimes", "PURE_REDUCE_PARTITION=-1",
                             "PURE_FIBERS=always"}));
  // One line per bad value.
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 7) << err;
}

TEST(Config, OutOfRangeValuesAreNamed) {
  CleanPureEnvironment clean;
  setenv("PURE_RANKS", "0", 1);
  setenv("PURE_EAGER_LIMIT", "32", 1);
  setenv("PURE_QUEUE_SLOTS", "1", 1);
  setenv("PURE_DEADLOCK_TIMEOUT", "-1", 1);
  setenv("PURE_ABORT_GRACE", "0", 1);
  setenv("PURE_REDUCE_PARTITION", "2G", 1);
  const std::string err = config_error();
  EXPECT_TRUE(mentions(err, {"PURE_RANKS=0", "PURE_EAGER_LIMIT=32", "PURE_QUEUE_SLOTS=1",
                             "PURE_DEADLOCK_TIMEOUT=", "PURE_ABORT_GRACE=",
                             "PURE_REDUCE_PARTITION=2147483648"}));
}

TEST(Config, ReducePartitionIsAutoOrZeroToOneG) {
  CleanPureEnvironment clean;
  setenv("PURE_REDUCE_PARTITION", "auto", 1);
  EXPECT_EQ(pure::Config::from_env().reduce_partition, pure::kReducePartitionAuto);
  setenv("PURE_REDUCE_PARTITION", "0", 1);
  EXPECT_EQ(pure::Config::from_env().reduce_partition, 0u);
  setenv("PURE_REDUCE_PARTITION", "1G", 1);
  EXPECT_EQ(pure::Config::from_env().reduce_partition, std::size_t{1} << 30);
  setenv("PURE_REDUCE_PARTITION", "1025M", 1);
  EXPECT_TRUE(mentions(config_error(), {"PURE_REDUCE_PARTITION="}));
}

TEST(Config, RanksMustBeANumberInRange) {
  CleanPureEnvironment clean;
  for (const char* bad : {"-2", "4097", "1e3", "", "4 "}) {
    setenv("PURE_RANKS", bad, 1);
    EXPECT_TRUE(mentions(config_error(), {std::string("PURE_RANKS=") + bad})) << "'" << bad << "'";
  }
}

TEST(Config, RunValidatesAConfigBuiltInCode) {
  pure::Config c;
  c.ranks = 2;
  c.queue_slots = 1;
  bool ran = false;
  try {
    pure::run(c, [&](int, char**) {
      ran = true;
      return 0;
    });
    ADD_FAILURE() << "no ConfigError";
  } catch (const pure::ConfigError& e) {
    EXPECT_TRUE(mentions(e.what(), {"PURE_QUEUE_SLOTS=1"}));
  }
  EXPECT_FALSE(ran);
}

// Every row of the table is read by from_env: a value no setting accepts is
// named, by the setting's name and the value, on a line of its own.
TEST(Config, EveryRowOfTheTableRejectsNonsense) {
  for (const pure::settings::Setting& s : pure::settings::table()) {
    // Any program is a valid mpirun, and a writable path a valid trace file
    // (TraceConfig tests a bad one).
    if (std::string(s.name) == "PURE_MPIRUN" || std::string(s.name) == "PURE_TRACE") continue;
    CleanPureEnvironment clean;
    setenv(s.name, "@nonsense@", 1);
    if (std::string(s.name) == "PURE_RANK_MAP") setenv("PURE_PROCS", "1", 1);
    const std::string err = config_error();
    EXPECT_TRUE(mentions(err, {s.name})) << s.name;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
}

TEST(Config, AnUnknownSettingIsNamedWithItsPurerunOption) {
  CleanPureEnvironment clean;
  setenv("PURE_EAGER_LIMT", "16K", 1);
  EXPECT_TRUE(mentions(config_error(), {"PURE_EAGER_LIMT (purerun --eager-limt): unknown setting"}));
}

TEST(Config, PurerunOptionsFollowTheNames) {
  EXPECT_EQ(pure::settings::option_of("PURE_EAGER_LIMIT"), "--eager-limit");
  EXPECT_EQ(pure::settings::option_of("PURE_RANKS"), "--ranks");
  ASSERT_NE(pure::settings::find("PURE_STEAL_POLICY"), nullptr);
  EXPECT_EQ(pure::settings::find("PURE_NOTHING"), nullptr);
}

TEST(TasksConfig, SettingsAreRead) {
  CleanPureEnvironment clean;
  pure::Config defaults = pure::Config::from_env();
  EXPECT_EQ(defaults.chunk_policy, pure::ChunkPolicy::single);
  EXPECT_EQ(defaults.steal_policy, pure::StealPolicy::random);
  EXPECT_EQ(defaults.helpers, 0);
  EXPECT_FALSE(defaults.stats);
  setenv("PURE_CHUNK_POLICY", "guided", 1);
  setenv("PURE_STEAL_POLICY", "sticky", 1);
  setenv("PURE_MAX_TASK_CHUNKS", "256", 1);
  setenv("PURE_HELPERS", "3", 1);
  setenv("PURE_STATS", "1", 1);
  const pure::Config c = pure::Config::from_env();
  EXPECT_EQ(c.chunk_policy, pure::ChunkPolicy::guided);
  EXPECT_EQ(c.steal_policy, pure::StealPolicy::sticky);
  EXPECT_EQ(c.max_task_chunks, 256);
  EXPECT_EQ(c.helpers, 3);
  EXPECT_TRUE(c.stats);
  setenv("PURE_STEAL_POLICY", "numa", 1);
  EXPECT_EQ(pure::Config::from_env().steal_policy, pure::StealPolicy::numa);
}

TEST(TasksConfig, BadValuesAreNamed) {
  CleanPureEnvironment clean;
  setenv("PURE_CHUNK_POLICY", "static", 1);
  setenv("PURE_STEAL_POLICY", "nearest", 1);
  setenv("PURE_MAX_TASK_CHUNKS", "0", 1);
  setenv("PURE_HELPERS", "-2", 1);
  setenv("PURE_STATS", "yes", 1);
  std::string err;
  try {
    pure::Config::from_env();
  } catch (const pure::ConfigError& e) {
    err = e.what();
  }
  for (const char* needle : {"PURE_CHUNK_POLICY=static", "PURE_STEAL_POLICY=nearest",
                             "PURE_MAX_TASK_CHUNKS=0", "PURE_HELPERS=-2", "PURE_STATS=yes"})
    EXPECT_NE(err.find(needle), std::string::npos) << needle << " missing from:\n" << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 5) << err;

  pure::Config c;
  c.max_task_chunks = 0;
  c.helpers = 5000;
  try {
    c.validate();
    ADD_FAILURE() << "validate accepted bad task settings";
  } catch (const pure::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("PURE_MAX_TASK_CHUNKS=0"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("PURE_HELPERS=5000"), std::string::npos);
  }
}

}  // namespace
}  // namespace pure_testing
