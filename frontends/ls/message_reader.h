// MessageReader: the Language Server Protocol's base protocol, the framing of JSON-RPC
// messages on a byte stream ("Content-Length: N\r\n\r\n" then N bytes of JSON).
//
// Bytes go in as they come (Append); whole message bodies come out (Next). The reader never
// holds more than a header block and one body of at most `max_body_bytes`: a longer message is
// skipped as its bytes arrive, and reported once as an error, so a huge or hostile peer costs
// neither memory nor a hang. After a malformed header the reader drops that header and looks
// for the next "Content-Length" to resynchronise.
//
// Thread-safety: none; one reader per stream.

#ifndef KEYDECIDE_FRONTENDS_LS_MESSAGE_READER_H_
#define KEYDECIDE_FRONTENDS_LS_MESSAGE_READER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace keydecide::ls {

class MessageReader {
 public:
  // A body larger than this is skipped. 16 MiB: a 10 MB file opened in an editor still
  // arrives whole (the server then refuses to keep it: DocumentStore's own cap).
  static constexpr size_t kDefaultMaxBodyBytes = 16u << 20;
  // Header lines are short ("Content-Length", "Content-Type"); a block longer than this is
  // not the base protocol.
  static constexpr size_t kMaxHeaderBytes = 4096;

  explicit MessageReader(size_t max_body_bytes = kDefaultMaxBodyBytes)
      : max_body_bytes_(max_body_bytes) {}

  enum class Result { kMessage, kNeedMore, kError };

  // Adds bytes read from the stream.
  void Append(std::string_view bytes);

  // kMessage: *body holds the next message's body. kNeedMore: no whole message yet (Append
  // more). kError: a malformed header or an oversized message was dropped; *error says what,
  // without quoting the stream's bytes (they may be the person's text). Call Next again after
  // kMessage or kError: more messages may be buffered.
  Result Next(std::string* body, std::string* error);

  // Bytes buffered and not yet returned (for tests of the memory bound).
  size_t buffered() const { return buffer_.size() - start_; }

 private:
  // Drops bytes up to the next "Content-Length" (or all but a possible start of one).
  void Resynchronise();
  void Consume(size_t n);

  size_t max_body_bytes_;
  std::string buffer_;
  size_t start_ = 0;     // first unread byte of buffer_
  size_t skipping_ = 0;  // bytes of an oversized body still to drop as they arrive
};

// The framed form of one message body, ready to write to the stream.
std::string FrameMessage(std::string_view body);

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_MESSAGE_READER_H_
