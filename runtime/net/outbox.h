// Batches: how point-to-point messages between processes travel over MPI.
//
// Outbox: the messages of one process to one member of a communicator in
// another process, shared by every rank of the sending process. Every
// message goes through it as a record of a batch, in the order the outbox
// took it:
// * a small one (Outbox::kRecordBytes, not synchronous) is copied into its
//   record;
// * any other is announced by its record, which names a payload tag, and
//   its data goes by itself (MPI_Isend, or MPI_Issend for a synchronous
//   send) on the receiver's payload communicator with that tag, unique
//   between this outbox and its receiver; the receiver posts the matching
//   MPI_Irecv once a receive of its own matched the record, straight into
//   the user's buffer.
//
// When a batch leaves. No timers: a record that finds no batch in flight
// leaves at once (its send starts one), and so does an announcement and a
// blocking send's record; records that come while one is in flight wait
// for it, and whoever next flushes the outbox (the sender's wait, any rank's
// progress that owes it records) starts them all as one MPI message. A
// batch also leaves before it would outgrow kBatchBytes.
//
// Inbox: the receiving member's side, owned by its rank alone: kPosted
// receives (MPI_ANY_SOURCE) kept posted on its batch communicator. MPI
// hands them the batches in the order each process sent them (the
// non-overtaking rule: one tag, one communicator), and the rank reads them
// in the order it posted them; so each sender's records are read in the
// order it sent them, whether inline or announced.
//
// A batch on the wire: records one after another, each a Record header and
// (inline records) its payload, padded to 8 bytes.
//
// Known limits: payload tags wrap at MPI_TAG_UB per outbox, so a message
// left unreceived while that many more were announced on the same outbox
// would meet a newer one's receive; and a batch never read (its
// communicator freed first) is dropped with its messages.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace pure {

class Outbox : public std::enable_shared_from_this<Outbox> {
 public:
  // A batch leaves, without waiting for the one in flight, before a record
  // would take it past this size (also the size of each receive an Inbox
  // keeps posted): up to 4 KiB with MPI's own header, MPI libraries send a
  // message between processes of a host eagerly (Open MPI's vader, MPICH's
  // shared memory) rather than by a rendezvous with its receiver.
  static constexpr std::size_t kBatchBytes = 4096 - 64;
  // Batches in flight past which starting another first reaps those done.
  static constexpr std::size_t kReapAt = 8;

  struct Record {
    std::int32_t slot;     // the sender's slot (CommNet::slot_of)
    std::int32_t tag;      // the program's tag (it never reaches MPI)
    std::uint64_t bytes;   // the message's size
    std::int32_t payload;  // kInline, or the payload's MPI tag
    std::uint32_t flags;   // kSchedule
  };
  static constexpr std::int32_t kInline = -1;
  // The message is on the communicator's hidden twin (collective
  // schedules, comm/comm.h), which shares its MPI communicators.
  static constexpr std::uint32_t kSchedule = 1;
  // The MPI tag of every batch (alone on its communicator).
  static constexpr int kBatchTag = 0;
  static std::size_t padded(std::size_t bytes) { return (bytes + 7) & ~std::size_t{7}; }
  // A message no larger than this is copied into its record: every one a
  // batch has room for.
  static constexpr std::size_t kRecordBytes = kBatchBytes - sizeof(Record);

  // Messages to the member at MPI rank `dest_pos` of `batches` (its batch
  // communicator) and `payloads` (its payload communicator); payloads
  // carry tags 0 .. payload_tag_ub.
  Outbox(MPI_Comm batches, MPI_Comm payloads, int dest_pos, int payload_tag_ub);
  ~Outbox();
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  // Copies a small message in (`fill` writes its header.bytes) and returns
  // the batch it went into: it has left once started() reaches that.
  // `now`: start the batch at once, even behind one in flight.
  template <class Fill>
  std::uint64_t add(Record header, bool now, Fill&& fill) {
    std::lock_guard<std::mutex> hold(lock_);
    header.payload = kInline;
    fill(append(header, padded(header.bytes)));
    // Relaxed: started_ changes only under lock_, which this thread holds.
    const std::uint64_t batch = started_.load(std::memory_order_relaxed) + 1;
    if (now || flights_.empty()) start_filling();
    return batch;
  }
  // Announces a message in a record, started at once, and calls
  // start(payloads, dest, payload_tag) to send its data (under the lock).
  template <class Start>
  void announce(Record header, Start&& start) {
    std::lock_guard<std::mutex> hold(lock_);
    header.payload = next_payload_;
    next_payload_ = next_payload_ == payload_tag_ub_ ? 0 : next_payload_ + 1;
    append(header, 0);
    start_filling();
    start(payloads_, dest_pos_, header.payload);
  }
  // Reaps the batches MPI finished with and, if none is left in flight
  // (or `now`: a sender waits for its records), starts the records waiting.
  void flush(bool now = false);
  // Batches handed to MPI so far (acquire: pairs with start_filling's release).
  std::uint64_t started() const { return started_.load(std::memory_order_acquire); }

  // The communicator is going (its MPI communicators are freed next): the
  // waiting records leave now; nothing is added after.
  void close();
  // Before MPI_Finalize: every outbox still alive starts its records, and
  // waits a bounded time for its batches; MPI keeps the rest (their buffers
  // are released after MPI_Finalize, by release_after_finalize).
  static void finish_all();
  static void release_after_finalize();

 private:
  // The batches in MPI: their requests (one array, for MPI_Testsome) and
  // their buffers, alike indexed.
  // Appends a record and room for `room` bytes of payload (starting the
  // batch first if it would outgrow kBatchBytes); where the payload goes.
  char* append(const Record& header, std::size_t room);  // lock held
  void start_filling();                                  // lock held
  void reap();                                           // lock held
  // Hands flights MPI has not finished to MPI_Request_free; their buffers
  // live until after MPI_Finalize. registry_lock held (outbox.cpp).
  void abandon_flights();

  std::mutex lock_;
  const MPI_Comm batches_;
  const MPI_Comm payloads_;
  const int dest_pos_;
  const int payload_tag_ub_;
  int next_payload_ = 0;
  std::vector<char> filling_;
  std::vector<MPI_Request> flights_;
  std::vector<std::vector<char>> flight_data_;
  std::vector<int> done_;                // MPI_Testsome's indices
  std::vector<std::vector<char>> free_;  // finished batches' buffers, for the next ones
  // Release: pairs with started()'s acquire, read without the lock.
  std::atomic<std::uint64_t> started_{0};
};

class Inbox {
 public:
  static constexpr int kPosted = 2;
  // Posts the receives on `batches` (the member's batch communicator).
  explicit Inbox(MPI_Comm batches);
  ~Inbox();  // cancels them
  Inbox(const Inbox&) = delete;
  Inbox& operator=(const Inbox&) = delete;

  // The next batch in posting order if MPI filled it (its size in *bytes,
  // its sender's MPI rank in *source), else nullptr; done() says it was
  // read, and repost() posts its receive again. Not at once: a receiver
  // usually answers what it read first, and the other receive stays posted
  // meanwhile.
  const char* next(std::size_t* bytes, int* source);
  void done();
  void repost();

 private:
  void post(int i);
  const MPI_Comm batches_;
  MPI_Request requests_[kPosted];
  std::vector<char> buffers_[kPosted];
  int head_ = 0;
  int read_ = -1;  // the receive read last, to post again at the next look
};

}  // namespace pure
