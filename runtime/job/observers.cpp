#include "job/observers.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "net/cluster.h"

namespace pure {

namespace {

using nlohmann::json;

// Thread ids of the trace: a rank's is its world rank; helper thread h of
// process p gets one above every rank's.
int helper_tid(int world_size, int proc, int helper) { return world_size + proc * 1024 + helper; }

// Microseconds on process 0's time line (Chrome's unit) of a stamp.
double micros(const trace::Calibration& clock, std::uint64_t stamp, std::int64_t offset) {
  return static_cast<double>(static_cast<std::int64_t>(clock.to_ns(stamp)) - offset) / 1000.0;
}

// The arguments of an event that has them.
json args_of(const trace::Event& e, const std::vector<std::pair<int, std::string>>& names) {
  json a = json::object();
  if (e.peer >= 0) a["peer (world rank)"] = e.peer;
  if (e.tag >= 0) a["tag"] = e.tag;
  if (e.bytes >= 0) a["bytes"] = e.bytes;
  if (e.context >= 0) {
    auto it = std::find_if(names.begin(), names.end(),
                           [&](const auto& n) { return n.first == e.context; });
    a["communicator"] = it != names.end() ? it->second : "context " + std::to_string(e.context);
  }
  if (e.how != trace::How::none) a["waited by"] = trace::how_name(e.how);
  if (e.kind == trace::Event::Kind::slice && e.id > 0) a["calls"] = e.id + 1;  // merged polls
  return a;
}

void add(std::string& out, const json& event) {
  if (!out.empty()) out += ",\n";
  out += event.dump();
}

}  // namespace

Observers::Observers(const Config& config, std::vector<int> world_of_local, int world_size,
                     int helpers, int proc, Cluster* cluster)
    : config_(config),
      world_of_(std::move(world_of_local)),
      world_size_(world_size),
      helpers_(helpers),
      proc_(proc),
      cluster_(cluster) {
  if (!config_.trace_path.empty()) {
    const std::size_t threads = world_of_.size() + static_cast<std::size_t>(helpers_) + 1;
    for (std::size_t i = 0; i < threads; ++i)
      buffers_.push_back(std::make_unique<trace::Buffer>(config_.trace_limit));
    context_names_.resize(world_of_.size());
  }
  if (config_.stats) stats_.resize(world_of_.size());
}

void Observers::attach(Waiter& waiter, int local, bool helper) {
  const std::size_t i = static_cast<std::size_t>(local) + (helper ? world_of_.size() : 0);
  trace::Buffer* buffer = tracing() ? buffers_[i].get() : nullptr;
  RankStats* stats = counting() && !helper ? &stats_[static_cast<std::size_t>(local)] : nullptr;
  waiter.set_observers(buffer, stats);
}

void Observers::sample(std::uint64_t parked_ranks, std::uint64_t queued_messages) {
  if (!tracing()) return;
  trace::Buffer& b = *buffers_.back();
  const std::uint64_t t = trace::now();
  b.push(trace::Event{t, t, "parked ranks", parked_ranks, -1, -1, -1, -1,
                      trace::Event::Kind::counter, trace::How::none});
  b.push(trace::Event{t, t, "messages sent, not yet received", queued_messages, -1, -1, -1, -1,
                      trace::Event::Kind::counter, trace::How::none});
}

void Observers::name_context(int local, int context, const std::string& name) {
  auto& names = context_names_[static_cast<std::size_t>(local)];
  for (auto& n : names) {
    if (n.first != context) continue;
    if (n.second != name) n.second = name;
    return;
  }
  names.emplace_back(context, name);
}

std::string Observers::trace_part() const {
  const std::int64_t offset = cluster_ ? cluster_->clock_offset_ns() : 0;
  const trace::Calibration clock;
  std::string out;
  add(out, json{{"name", "process_name"}, {"ph", "M"}, {"pid", proc_},
                {"args", {{"name", "process " + std::to_string(proc_)}}}});
  add(out, json{{"name", "process_sort_index"}, {"ph", "M"}, {"pid", proc_},
                {"args", {{"sort_index", proc_}}}});
  const std::size_t ranks = world_of_.size();
  for (std::size_t i = 0; i + 1 < buffers_.size(); ++i) {
    const trace::Buffer& b = *buffers_[i];
    const bool helper = i >= ranks;
    const int tid = helper ? helper_tid(world_size_, proc_, static_cast<int>(i - ranks)) : world_of_[i];
    std::string name = helper ? "helper " + std::to_string(i - ranks) : "rank " + std::to_string(tid);
    if (b.dropped()) name += " (" + std::to_string(b.dropped()) + " oldest events dropped)";
    add(out, json{{"name", "thread_name"}, {"ph", "M"}, {"pid", proc_}, {"tid", tid},
                  {"args", {{"name", name}}}});
    add(out, json{{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", proc_}, {"tid", tid},
                  {"args", {{"sort_index", tid}}}});
    static const std::vector<std::pair<int, std::string>> no_names;
    const auto& names = helper ? no_names : context_names_[i];
    b.for_each([&](const trace::Event& e) {
      json j{{"name", e.name}, {"pid", proc_}, {"tid", tid}, {"ts", micros(clock, e.begin, offset)}};
      switch (e.kind) {
        case trace::Event::Kind::slice:
          j["ph"] = "X";
          j["dur"] = static_cast<double>(clock.span_ns(e.end - e.begin)) / 1000.0;
          if (json a = args_of(e, names); !a.empty()) j["args"] = a;
          add(out, j);
          break;
        case trace::Event::Kind::chunk:
          j["ph"] = "X";
          j["dur"] = static_cast<double>(clock.span_ns(e.end - e.begin)) / 1000.0;
          j["args"] = {{"chunks", std::to_string(e.tag) + ".." + std::to_string(e.context)}};
          add(out, j);
          break;
        case trace::Event::Kind::flow_out:
        case trace::Event::Kind::flow_in:
          // Bound to the enclosing slice: the call that sent or received.
          j["ph"] = e.kind == trace::Event::Kind::flow_out ? "s" : "f";
          j["bp"] = "e";
          j["cat"] = "message";
          j["id"] = e.id;
          add(out, j);
          break;
        case trace::Event::Kind::stolen: {
          // The chunk on the thief's track, and an arrow from the owner's
          // task: its tail on the owner's track where the task began.
          const int owner_tid = world_of_[static_cast<std::size_t>(e.peer)];
          const std::uint64_t flow =
              trace::flow_id(owner_tid, tid, static_cast<int>(e.id), e.tag, e.id + 1);
          j["ph"] = "X";
          j["dur"] = static_cast<double>(clock.span_ns(e.end - e.begin)) / 1000.0;
          j["args"] = {{"owner (world rank)", owner_tid}, {"chunks", std::to_string(e.tag) + ".." + std::to_string(e.context)}};
          add(out, j);
          add(out, json{{"name", "steal"}, {"ph", "s"}, {"cat", "steal"}, {"id", flow},
                        {"pid", proc_}, {"tid", owner_tid},
                        {"ts", micros(clock, static_cast<std::uint64_t>(e.bytes), offset)}});
          add(out, json{{"name", "steal"}, {"ph", "f"}, {"bp", "e"}, {"cat", "steal"}, {"id", flow},
                        {"pid", proc_}, {"tid", tid}, {"ts", micros(clock, e.begin, offset)}});
          break;
        }
        case trace::Event::Kind::counter:
          break;
      }
    });
  }
  buffers_.back()->for_each([&](const trace::Event& e) {
    add(out, json{{"name", e.name}, {"ph", "C"}, {"pid", proc_}, {"ts", micros(clock, e.begin, offset)},
                  {"args", {{"value", e.id}}}});
  });
  return out;
}

std::string Observers::stats_part(const std::vector<PURE_Task_stats>& tasks,
                                  PURE_Task_stats helpers) const {
  json ranks = json::array();
  const trace::Calibration clock;
  for (std::size_t i = 0; i < stats_.size(); ++i) {
    const RankStats& s = stats_[i];
    auto traffic = [](const RankStats::Traffic& t) {
      return json{{"messages", t.messages}, {"bytes", t.bytes}};
    };
    const PURE_Task_stats t = i < tasks.size() ? tasks[i] : PURE_Task_stats{0, 0, 0};
    ranks.push_back(json{{"rank", world_of_[i]},
                         {"process", proc_},
                         {"sent_within_process", traffic(s.sent_local)},
                         {"sent_to_other_processes", traffic(s.sent_remote)},
                         {"received_within_process", traffic(s.received_local)},
                         {"received_from_other_processes", traffic(s.received_remote)},
                         {"blocked_s", static_cast<double>(clock.span_ns(s.blocked)) / 1e9},
                         {"collectives", s.collectives},
                         {"tasks", t.tasks},
                         {"own_chunks", t.own_chunks},
                         {"stolen_chunks", t.stolen_chunks}});
  }
  return json{{"ranks", ranks},
              {"helpers", {{"threads", helpers_}, {"stolen_chunks", helpers.stolen_chunks}}}}
      .dump();
}

void Observers::write_trace(const std::string& path, const std::vector<std::string>& parts) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  bool first = true;
  for (const std::string& p : parts) {
    if (p.empty()) continue;
    if (!first) out << ",\n";
    out << p;
    first = false;
  }
  out << "\n]}\n";
  out.close();
  if (!out)
    std::fprintf(stderr, "pure: could not write the trace to %s\n", path.c_str());
  else
    std::fprintf(stderr, "pure: trace written to %s\n", path.c_str());
}

void Observers::write_stats(const std::vector<std::string>& parts, int only_process) const {
  json ranks = json::array();
  long long helper_threads = 0, helper_chunks = 0;
  for (const std::string& p : parts) {
    json part = json::parse(p);
    for (json& r : part["ranks"]) ranks.push_back(std::move(r));
    helper_threads += part["helpers"]["threads"].get<long long>();
    helper_chunks += part["helpers"]["stolen_chunks"].get<long long>();
  }
  std::sort(ranks.begin(), ranks.end(),
            [](const json& a, const json& b) { return a["rank"] < b["rank"]; });
  json totals = {{"messages_sent", 0}, {"bytes_sent", 0}, {"messages_received", 0},
                 {"bytes_received", 0}, {"blocked_s", 0.0}, {"collectives", 0},
                 {"own_chunks", 0}, {"stolen_chunks", 0}};
  for (const json& r : ranks) {
    for (const char* k : {"sent_within_process", "sent_to_other_processes"}) {
      totals["messages_sent"] = totals["messages_sent"].get<std::uint64_t>() + r[k]["messages"].get<std::uint64_t>();
      totals["bytes_sent"] = totals["bytes_sent"].get<std::uint64_t>() + r[k]["bytes"].get<std::uint64_t>();
    }
    for (const char* k : {"received_within_process", "received_from_other_processes"}) {
      totals["messages_received"] =
          totals["messages_received"].get<std::uint64_t>() + r[k]["messages"].get<std::uint64_t>();
      totals["bytes_received"] = totals["bytes_received"].get<std::uint64_t>() + r[k]["bytes"].get<std::uint64_t>();
    }
    totals["blocked_s"] = totals["blocked_s"].get<double>() + r["blocked_s"].get<double>();
    for (const char* k : {"collectives", "own_chunks", "stolen_chunks"})
      totals[k] = totals[k].get<std::uint64_t>() + r[k].get<std::uint64_t>();
  }
  std::vector<const json*> by_blocked;
  for (const json& r : ranks) by_blocked.push_back(&r);
  std::stable_sort(by_blocked.begin(), by_blocked.end(), [](const json* a, const json* b) {
    return (*a)["blocked_s"].get<double>() > (*b)["blocked_s"].get<double>();
  });
  json most_blocked = json::array();
  for (std::size_t i = 0; i < by_blocked.size() && i < 3; ++i)
    most_blocked.push_back({{"rank", (*by_blocked[i])["rank"]}, {"blocked_s", (*by_blocked[i])["blocked_s"]}});

  if (!config_.stats_path.empty()) {
    // A process's own part goes next to the file, named by its number (as
    // the trace's), and says whose it is.
    const std::string path = only_process >= 0
                                 ? config_.stats_path + "." + std::to_string(only_process)
                                 : config_.stats_path;
    json doc = {{"ranks", ranks},
                {"helpers", {{"threads", helper_threads}, {"stolen_chunks", helper_chunks}}},
                {"totals", totals},
                {"most_blocked", most_blocked}};
    if (only_process >= 0) doc["only_process"] = only_process;
    std::ofstream out(path, std::ios::trunc);
    out << doc.dump(2) << "\n";
    out.close();
    if (!out) std::fprintf(stderr, "pure: could not write the statistics to %s\n", path.c_str());
    return;
  }
  auto u = [](const json& v) { return static_cast<unsigned long long>(v.get<std::uint64_t>()); };
  std::fprintf(stderr,
               "pure: stats: %5s %4s | %9s %12s | %9s %12s | %9s %12s | %9s %12s | %9s | %6s | "
               "%6s %8s %8s\n",
               "rank", "proc", "sent here", "bytes", "sent away", "bytes", "recv here", "bytes",
               "recv away", "bytes", "blocked s", "colls", "tasks", "own chk", "stolen");
  for (const json& r : ranks)
    std::fprintf(stderr,
                 "pure: stats: %5d %4d | %9llu %12llu | %9llu %12llu | %9llu %12llu | %9llu %12llu "
                 "| %9.3f | %6llu | %6llu %8llu %8llu\n",
                 r["rank"].get<int>(), r["process"].get<int>(),
                 u(r["sent_within_process"]["messages"]), u(r["sent_within_process"]["bytes"]),
                 u(r["sent_to_other_processes"]["messages"]), u(r["sent_to_other_processes"]["bytes"]),
                 u(r["received_within_process"]["messages"]), u(r["received_within_process"]["bytes"]),
                 u(r["received_from_other_processes"]["messages"]),
                 u(r["received_from_other_processes"]["bytes"]), r["blocked_s"].get<double>(),
                 u(r["collectives"]), u(r["tasks"]), u(r["own_chunks"]), u(r["stolen_chunks"]));
  char whose[96] = "total";
  if (only_process >= 0)
    std::snprintf(whose, sizeof whose,
                  "total of process %d alone (the job aborted before the processes could gather)",
                  only_process);
  std::fprintf(stderr,
               "pure: stats: %s: %llu messages (%llu bytes) sent, %llu (%llu bytes) received, "
               "%.3f s blocked, %llu collective calls, %llu own and %llu stolen chunks\n",
               whose, u(totals["messages_sent"]), u(totals["bytes_sent"]), u(totals["messages_received"]),
               u(totals["bytes_received"]), totals["blocked_s"].get<double>(),
               u(totals["collectives"]), u(totals["own_chunks"]), u(totals["stolen_chunks"]));
  std::string most;
  for (const json& m : most_blocked) {
    char line[64];
    std::snprintf(line, sizeof line, "%srank %d (%.3f s)", most.empty() ? "" : ", ",
                  m["rank"].get<int>(), m["blocked_s"].get<double>());
    most += line;
  }
  if (helper_threads > 0)
    std::fprintf(stderr, "pure: stats: %lld helper thread(s): %lld stolen chunks\n", helper_threads,
                 helper_chunks);
  std::fprintf(stderr, "pure: stats: blocked longest: %s\n", most.c_str());
  std::fflush(stderr);
}

void Observers::finish(bool aborting, const std::vector<PURE_Task_stats>& tasks,
                       PURE_Task_stats helpers, bool unless_gathering) {
  // Relaxed: a gather seen late costs the caller a wait that the aborting
  // process's MPI_Abort ends (AbortNotice), nothing more.
  if (unless_gathering && gathering_.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> once(finish_mutex_);
  if (finished_ || (!tracing() && !counting())) return;
  finished_ = true;
  // Across processes: process 0 gathers every part and writes. An abort
  // cannot gather (the other processes are not listening): each process
  // then writes its own part next to the file, named by its number.
  const bool gather = cluster_ && !aborting;
  gathering_.store(gather, std::memory_order_relaxed);
  if (tracing()) {
    std::string part = trace_part();
    if (gather) {
      const std::vector<std::string> parts = cluster_->gather_to_first(part);
      if (proc_ == 0) write_trace(config_.trace_path, parts);
    } else {
      write_trace(cluster_ ? config_.trace_path + "." + std::to_string(proc_) : config_.trace_path,
                  {part});
    }
  }
  if (counting()) {
    std::string part = stats_part(tasks, helpers);
    if (gather) {
      const std::vector<std::string> parts = cluster_->gather_to_first(part);
      if (proc_ == 0) write_stats(parts);
    } else {
      write_stats({part}, cluster_ ? proc_ : -1);
    }
  }
}

}  // namespace pure
