#include "net/outbox.h"

#include <sched.h>

#include <algorithm>
#include <chrono>

#include "net/cluster.h"

namespace pure {

namespace {

// Every live outbox of this process, for finish_all; and the buffers of
// batches handed to MPI_Request_free, which MPI may read until it is
// finalised. Guarded by registry_lock.
std::mutex registry_lock;
std::vector<Outbox*>& registry() {
  static std::vector<Outbox*> boxes;
  return boxes;
}
std::vector<std::vector<char>>& abandoned() {
  static std::vector<std::vector<char>> buffers;
  return buffers;
}

}  // namespace

Outbox::Outbox(MPI_Comm batches, MPI_Comm payloads, int dest_pos, int payload_tag_ub)
    : batches_(batches), payloads_(payloads), dest_pos_(dest_pos), payload_tag_ub_(payload_tag_ub) {
  std::lock_guard<std::mutex> hold(registry_lock);
  registry().push_back(this);
}

Outbox::~Outbox() {
  Cluster* cluster = Cluster::current();
  const bool live = cluster && !cluster->finalized();
  if (live) reap();
  std::lock_guard<std::mutex> hold(registry_lock);
  auto& boxes = registry();
  boxes.erase(std::find(boxes.begin(), boxes.end(), this));
  if (live) abandon_flights();
}

char* Outbox::append(const Record& header, std::size_t room) {
  const std::size_t size = sizeof header + room;
  if (filling_.size() + size > kBatchBytes) start_filling();
  const std::size_t at = filling_.size();
  filling_.resize(at + size);
  std::memcpy(filling_.data() + at, &header, sizeof header);
  return filling_.data() + at + sizeof header;
}

void Outbox::start_filling() {
  if (filling_.empty()) return;
  // Sends that start batches at once (blocking ones, announcements) leave
  // their batches behind: those done are reaped here now and then.
  if (flights_.size() >= kReapAt) reap();
  flights_.push_back(MPI_REQUEST_NULL);
  flight_data_.push_back(std::move(filling_));
  filling_.clear();
  if (!free_.empty()) {
    filling_ = std::move(free_.back());
    free_.pop_back();
  }
  const std::vector<char>& data = flight_data_.back();
  mpi_check(MPI_Isend(data.data(), static_cast<int>(data.size()), MPI_BYTE, dest_pos_, kBatchTag,
                      batches_, &flights_.back()),
            "MPI_Isend");
  started_.fetch_add(1, std::memory_order_release);
}

void Outbox::reap() {
  if (flights_.empty()) return;
  int done = 0;
  done_.resize(flights_.size());
  mpi_check(MPI_Testsome(static_cast<int>(flights_.size()), flights_.data(), &done, done_.data(),
                         MPI_STATUSES_IGNORE),
            "MPI_Testsome");
  if (done <= 0) return;  // none (or MPI_UNDEFINED: none active)
  // Done ones are MPI_REQUEST_NULL now: squeeze them out, keeping their buffers.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < flights_.size(); ++i) {
    if (flights_[i] == MPI_REQUEST_NULL) {
      flight_data_[i].clear();
      free_.push_back(std::move(flight_data_[i]));
      continue;
    }
    flights_[kept] = flights_[i];
    if (kept != i) flight_data_[kept] = std::move(flight_data_[i]);
    ++kept;
  }
  flights_.resize(kept);
  flight_data_.resize(kept);
}

void Outbox::flush(bool now) {
  std::lock_guard<std::mutex> hold(lock_);
  if (flights_.empty() && filling_.empty()) return;
  reap();
  if (now || flights_.empty()) start_filling();
}

void Outbox::close() {
  std::lock_guard<std::mutex> hold(lock_);
  start_filling();
}

void Outbox::abandon_flights() {
  for (std::size_t i = 0; i < flights_.size(); ++i) {
    mpi_check(MPI_Request_free(&flights_[i]), "MPI_Request_free", MpiFailure::report);
    abandoned().push_back(std::move(flight_data_[i]));
  }
  flights_.clear();
  flight_data_.clear();
}

void Outbox::finish_all() {
  std::lock_guard<std::mutex> hold(registry_lock);
  // Every rank thread has ended: only this thread touches the outboxes.
  // A batch whose receiver never takes it (a message never received)
  // would keep MPI waiting for good: the wait is bounded.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (Outbox* box : registry()) {
    std::lock_guard<std::mutex> mine(box->lock_);
    box->start_filling();
    while (!box->flights_.empty() && std::chrono::steady_clock::now() < deadline) {
      box->reap();
      if (!box->flights_.empty()) sched_yield();
    }
    box->abandon_flights();
  }
}

void Outbox::release_after_finalize() {
  std::lock_guard<std::mutex> hold(registry_lock);
  abandoned().clear();
  abandoned().shrink_to_fit();
}

Inbox::Inbox(MPI_Comm batches) : batches_(batches) {
  for (int i = 0; i < kPosted; ++i) {
    buffers_[i].resize(Outbox::kBatchBytes);
    post(i);
  }
}

Inbox::~Inbox() {
  Cluster* cluster = Cluster::current();
  if (!cluster || cluster->finalized()) return;
  // A batch that came in already is dropped with the communicator (its
  // messages were never received).
  for (int i = 0; i < kPosted; ++i) {
    if (i == read_) continue;  // read, not posted again
    MPI_Request& r = requests_[i];
    mpi_check(MPI_Cancel(&r), "MPI_Cancel", MpiFailure::report);
    mpi_check(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait", MpiFailure::report);
  }
}

void Inbox::post(int i) {
  mpi_check(MPI_Irecv(buffers_[i].data(), static_cast<int>(buffers_[i].size()), MPI_BYTE,
                      MPI_ANY_SOURCE, Outbox::kBatchTag, batches_, &requests_[i]),
            "MPI_Irecv");
}

void Inbox::repost() {
  if (read_ < 0) return;
  post(read_);
  read_ = -1;
}

const char* Inbox::next(std::size_t* bytes, int* source) {
  int done = 0;
  MPI_Status st;
  mpi_check(MPI_Test(&requests_[head_], &done, &st), "MPI_Test");
  if (!done) return nullptr;
  int n = 0;
  mpi_check(MPI_Get_count(&st, MPI_BYTE, &n), "MPI_Get_count");
  *bytes = static_cast<std::size_t>(n);
  *source = st.MPI_SOURCE;
  return buffers_[head_].data();
}

void Inbox::done() {
  read_ = head_;
  head_ = (head_ + 1) % kPosted;
}

}  // namespace pure
