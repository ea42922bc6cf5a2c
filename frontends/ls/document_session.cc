#include "document_session.h"

#include <algorithm>

#include "keydecide/engine.h"

namespace keydecide::ls {
namespace {

constexpr size_t kMaxTypedRunBytes = 4096;

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

DocumentSession::DocumentSession(std::unique_ptr<Session> session, WordContinues word_continues)
    : session_(std::move(session)), word_continues_(std::move(word_continues)) {}

DocumentSession::~DocumentSession() = default;

void DocumentSession::Invalidate() {
  synced_end_ = kNone;
  typed_.clear();
}

void DocumentSession::OnEdit(const AppliedEdit& edit, std::string_view text) {
  const size_t removed = edit.end - edit.begin;
  // An edit that ends at the word offered last and leaves one of the offered texts there: the
  // person took that completion (however the client wrote it: a replacement of the word, or an
  // insertion of the rest).
  if (offer_end_ != kNone && edit.begin >= offer_begin_ && edit.end == offer_end_) {
    const size_t word_end = offer_end_ - removed + edit.inserted_bytes;
    const std::string_view word = text.substr(offer_begin_, word_end - offer_begin_);
    for (const auto& [candidate, id] : offered_) {
      if (candidate != word || synced_end_ != offer_end_ || !typed_.empty()) continue;
      Take(text, candidate, id, word_end);
      return;
    }
  }
  offer_end_ = kNone;
  if (synced_end_ == kNone) return;
  const size_t run_end = synced_end_ + typed_.size();
  if (edit.begin > run_end) return;  // after the cursor: the text before it is unchanged
  if (removed == 0 && edit.begin == run_end && edit.inserted_bytes <= kMaxTypedInsertBytes &&
      typed_.size() + edit.inserted_bytes <= kMaxTypedRunBytes) {
    typed_.append(text.substr(edit.begin, edit.inserted_bytes));  // typed at the cursor
  } else if (edit.inserted_bytes == 0 && edit.end == run_end && edit.begin >= synced_end_) {
    typed_.resize(edit.begin - synced_end_);  // deleted what was typed since
  } else {
    Invalidate();
  }
}

void DocumentSession::Take(std::string_view text, const std::string& candidate, uint32_t id,
                           size_t word_end) {
  offer_end_ = kNone;
  Status status;
  if (offer_begin_ >= context_end_) {
    status = session_->Pick(id);  // its letters were typed here
  } else {
    status = SetContext(text, synced_begin_, offer_begin_);
    if (status.ok()) status = session_->Accept(candidate);
  }
  if (!status.ok()) {
    Invalidate();
    return;
  }
  ++picks_;
  synced_end_ = word_end;  // the session now holds the word taken
}

size_t DocumentSession::WordStart(std::string_view text, size_t begin, size_t end) const {
  size_t start = end;
  while (start > begin && end - start < kMaxReopenBytes) {
    size_t p = start - 1;
    while (p > begin && IsContinuation(text[p])) --p;
    // Does every character from p on continue the word before it?
    bool word = true;
    for (size_t at = p; at < end && word;) {
      size_t next = at + 1;
      while (next < end && IsContinuation(text[next])) ++next;
      word = word_continues_(text.substr(p, at - p), text.substr(at, next - at));
      at = next;
    }
    if (!word) break;
    start = p;
  }
  return start;
}

Status DocumentSession::SetContext(std::string_view text, size_t region_begin, size_t end) {
  size_t begin = std::max(region_begin, end > kContextBytes ? end - kContextBytes : 0);
  while (begin < end && IsContinuation(text[begin])) ++begin;
  const size_t word = word_continues_ ? WordStart(text, begin, end) : end;
  context_end_ = word;
  Status status = session_->SetContext(text.substr(begin, word - begin));
  if (status.ok() && word < end) status = session_->Type(text.substr(word, end - word));
  return status;
}

Status DocumentSession::Complete(std::string_view text, size_t region_begin, size_t cursor,
                                 int max_items, Decision* out) {
  Status status;
  if (synced_end_ != kNone && synced_begin_ == region_begin &&
      cursor == synced_end_ + typed_.size()) {
    if (!typed_.empty()) status = session_->Type(typed_);
    ++typed_syncs_;
  } else {
    status = SetContext(text, region_begin, cursor);
  }
  typed_.clear();
  offer_end_ = kNone;
  if (!status.ok()) {
    Invalidate();
    return status;
  }
  synced_begin_ = region_begin;
  synced_end_ = cursor;
  status = session_->Decide(max_items, out);
  if (!status.ok()) {
    Invalidate();
    return status;
  }
  // The composition is a suffix of the text before the cursor; the items replace it.
  const std::string_view before = text.substr(region_begin, cursor - region_begin);
  const std::string& composition = out->composition;
  const bool suffix = composition.size() <= before.size() &&
                      before.substr(before.size() - composition.size()) == composition;
  offer_begin_ = suffix ? cursor - composition.size() : cursor;
  offer_end_ = cursor;
  offered_.clear();
  for (const Candidate& c : out->candidates) offered_.emplace_back(c.text, c.id);
  return Status::OK();
}

}  // namespace keydecide::ls
