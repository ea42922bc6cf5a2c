// A keydecide::Session without an engine, for the server's tests and its fuzzer: it records
// how it was fed (SetContext, Type, Pick) and offers the composition + "x" / + "y".

#ifndef KEYDECIDE_FRONTENDS_LS_TESTS_FAKE_SESSION_H_
#define KEYDECIDE_FRONTENDS_LS_TESTS_FAKE_SESSION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/engine.h"

namespace keydecide::ls {

struct FakeLog {
  // "context:<text>", "type:<text>", "pick:<text>", "accept:<text>"
  std::vector<std::string> calls;
};

class FakeSession : public Session {
 public:
  explicit FakeSession(FakeLog* log) : log_(log) {}

  Status Type(std::string_view text, std::optional<int64_t>) override {
    log_->calls.push_back("type:" + std::string(text));
    text_.append(text);
    offered_.clear();
    return Status::OK();
  }
  Status Backspace() override {
    if (!text_.empty()) text_.pop_back();
    offered_.clear();
    return Status::OK();
  }
  Status Accept(std::string_view word) override {
    log_->calls.push_back("accept:" + std::string(word));
    return Replace(word);
  }
  Status Pick(uint32_t id) override {
    for (const Candidate& c : offered_) {
      if (c.id != id) continue;
      log_->calls.push_back("pick:" + c.text);
      return Replace(c.text);
    }
    return Status::InvalidArgument("stale id");
  }
  Status Replace(std::string_view word) {
    text_.resize(text_.size() - composition().size());
    text_.append(word);
    offered_.clear();
    return Status::OK();
  }
  Status SetContext(std::string_view text) override {
    log_->calls.push_back("context:" + std::string(text));
    text_.assign(text);
    offered_.clear();
    return Status::OK();
  }
  Status Decide(int max_candidates, Decision* out) override {
    out->candidates.clear();
    out->composition = std::string(composition());
    for (const char* tail : {"x", "y"}) {
      if (static_cast<int>(out->candidates.size()) >= max_candidates) break;
      Candidate c;
      c.text = out->composition + tail;
      c.kind = out->composition.empty() ? CandidateKind::kNextWord : CandidateKind::kCompletion;
      c.id = ++next_id_;
      out->candidates.push_back(c);
    }
    offered_ = out->candidates;
    return Status::OK();
  }
  std::string_view text() const override { return text_; }
  std::string_view composition() const override {
    size_t start = text_.size();
    while (start > 0 && ((text_[start - 1] >= 'a' && text_[start - 1] <= 'z') ||
                         (text_[start - 1] >= 'A' && text_[start - 1] <= 'Z'))) {
      --start;
    }
    return std::string_view(text_).substr(start);
  }

 private:
  FakeLog* log_;
  std::string text_;
  std::vector<Candidate> offered_;
  uint32_t next_id_ = 0;
};

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_TESTS_FAKE_SESSION_H_
