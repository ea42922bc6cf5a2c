#include "typing_state.h"

#include <time.h>

#include <string_view>
#include <utility>

namespace keydecide::ibus {

namespace {

constexpr size_t kMaxContextBytes = 512;  // the session keeps its own, longer context
// Candidates asked of a session: a pack that converts a reading offers more (words for the
// first syllables after the sentence), a word pack fewer.
constexpr int32_t kWordCandidates = 10;
constexpr int32_t kReadingCandidates = 20;

int64_t NowMs() {  // the key's time for the model, on the clock the C ABI asks for
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

void PopLastChar(std::string* s) {
  if (s->empty()) return;
  size_t i = s->size() - 1;
  while (i > 0 && IsContinuation((*s)[i])) --i;
  s->resize(i);
}

int CharCount(std::string_view s) {
  int n = 0;
  for (char c : s) n += IsContinuation(c) ? 0 : 1;
  return n;
}

// Text up to its trailing word, by the pack's rule: a pack whose sessions reopen a finished
// word as the composition would take that word from the application, which has it committed.
std::string WithoutTrailingWord(std::string text, const WordRule& rule) {
  while (!text.empty()) {
    std::string rest = text;
    PopLastChar(&rest);
    if (!ExtendsWord(rule, "x", std::string_view(text).substr(rest.size()))) break;
    text = std::move(rest);
  }
  return text;
}

// 1..9 and 0 (the tenth) as an index on the page; -1 for anything else.
int DigitIndex(const std::string& ch) {
  if (ch.size() != 1 || ch[0] < '0' || ch[0] > '9') return -1;
  return ch[0] == '0' ? 9 : ch[0] - '1';
}

}  // namespace

TypingState::TypingState(DecisionWorker* worker, TypingHost* host, TypingSettings settings)
    : worker_(worker),
      host_(host),
      settings_(std::move(settings)),
      language_(settings_.languages.front()),
      self_(std::make_shared<TypingState*>(this)) {
  if (!LanguageTraits(language_, &traits_).ok()) traits_ = PackTraits();  // a word language
}

TypingState::~TypingState() {
  *self_ = nullptr;
  CloseSessions();
}

void TypingState::CloseSessions() {
  for (auto& [language, id] : sessions_) {
    if (id != 0) worker_->Close(id);
  }
  sessions_.clear();
}

void TypingState::SetLanguage(const std::string& language) {
  if (!preedit_.empty()) Flush();
  language_ = language;
  if (!LanguageTraits(language_, &traits_).ok()) traits_ = PackTraits();  // a word language
  answered_ = sent_;  // nothing of the other session's decisions is shown, even late
  decision_ = DecisionCopy();
  Draw();
}

void TypingState::SetField(const FieldPolicy& field) {
  if (field == field_) return;
  if (!preedit_.empty()) Flush();
  field_ = field;
  CloseSessions();  // opened again, with the new spec, at the next key
  answered_ = sent_;
  decision_ = DecisionCopy();
}

// --- Talking to the session ---------------------------------------------------------------

SessionSpec TypingState::Spec() const {
  SessionSpec spec;
  spec.language = language_;
  spec.app = field_.app;
  spec.no_learn = field_.private_text || (field_.terminal && !settings_.learn_in_terminals);
  spec.autocorrect_level =
      field_.no_spellcheck ? static_cast<int32_t>(KD_AUTOCORRECT_OFF) : settings_.autocorrect_level;
  spec.n_candidates = traits_.converts_reading ? kReadingCandidates : kWordCandidates;
  return spec;
}

void TypingState::EnsureSession() {
  uint64_t& id = SessionId();
  if (id != 0) return;
  id = worker_->Open(Spec());
  // The session starts empty; give it what this state holds (the letters reopen as its
  // composition).
  if (!context_.empty() || !preedit_.empty()) Send({{Edit::kSetContext, context_ + preedit_}});
}

void TypingState::Send(std::vector<Edit> edits) {
  EnsureSession();
  const uint64_t seq = ++sent_;
  dismissed_ = false;
  std::weak_ptr<TypingState*> self = self_;
  last_pending_ = worker_->Submit(SessionId(), std::move(edits), [self, seq](const Answer& a) {
    if (auto state = self.lock(); state && *state) (*state)->OnAnswer(seq, a);
  });
  worker_->Wait(last_pending_, settings_.wait);
  if (!Fresh()) Draw();
}

bool TypingState::CatchUp() {
  if (last_pending_ && !Fresh()) worker_->Wait(last_pending_, settings_.wait);
  return Fresh();
}

void TypingState::OnAnswer(uint64_t seq, const Answer& answer) {
  if (seq <= answered_ || seq > sent_) return;  // an older batch's, or another session's
  if (answer.rc == KD_SESSION_RESET) {          // the daemon restarted: give it our text
    Send({{Edit::kSetContext, context_ + preedit_}});
    return;
  }
  answered_ = seq;
  if (answer.rc != KD_OK) {
    // Without an engine (the models or the daemon are missing) the keys are typed as they are.
    decision_ = DecisionCopy();
    decision_.composition = preedit_;
    if (seq == sent_) Draw();
    return;
  }
  decision_ = answer.decision;
  if (seq == sent_) {
    preedit_ = decision_.composition;  // a fresh decision's composition is the preedit
    panel_.cursor = 0;
    Draw();
  }
}

// --- Drawing --------------------------------------------------------------------------------

void TypingState::Draw() {
  const int cursor = panel_.cursor;
  panel_ = PanelView();
  panel_.page_size = settings_.page_size;
  if (!preedit_.empty()) {
    panel_.preedit = Fresh() && !decision_.preedit.empty() ? decision_.preedit : preedit_;
  }
  const bool show = Fresh() && !dismissed_ && !field_.secret && !decision_.candidates.empty() &&
                    (traits_.always_show_bar || decision_.popup_show);
  if (show) {
    for (const auto& c : decision_.candidates) panel_.candidates.push_back(c.text);
    panel_.cursor = cursor < static_cast<int>(panel_.candidates.size()) ? cursor : 0;
  }
  host_->ShowPanel(panel_);
}

// --- Committing -----------------------------------------------------------------------------

void TypingState::CommitText(const std::string& text) {
  if (text.empty()) return;
  host_->CommitText(text);
  context_ += text;
  if (context_.size() > kMaxContextBytes) {
    size_t cut = context_.size() - kMaxContextBytes;
    while (cut < context_.size() && IsContinuation(context_[cut])) ++cut;
    context_.erase(0, cut);
  }
}

void TypingState::CommitAsTyped() {
  if (preedit_.empty()) return;
  const std::string letters = preedit_;
  CommitText(letters);
  preedit_.clear();
  Send({{Edit::kCommit, letters}});
}

void TypingState::Flush() {
  if (!preedit_.empty()) {
    CommitText(preedit_);
    preedit_.clear();
  }
  undo_.armed = false;
  literal_.clear();
  context_.clear();
  if (sent_ > 0) {
    Send({{Edit::kSetContext, ""}});
  } else {
    Draw();
  }
}

void TypingState::Pick(int index) {
  CatchUp();
  if (index < 0 || static_cast<size_t>(index) >= decision_.candidates.size()) return;
  const DecisionCopy::Candidate picked = decision_.candidates[static_cast<size_t>(index)];
  undo_.armed = false;
  literal_.clear();
  preedit_.clear();
  Edit pick{Edit::kPick, picked.text};
  pick.id = picked.id;
  if (traits_.pick_adds_space) {  // a word language: a word picked is followed by a space
    CommitText(picked.text + " ");
    Send({pick, {Edit::kType, " "}});
  } else {  // a reading converted: the rest of the letters stays, the answer's composition
    CommitText(picked.text);
    Send({pick});
  }
}

void TypingState::PageDown() {
  if (!Showing()) return;
  const int next = (panel_.cursor / panel_.page_size + 1) * panel_.page_size;
  if (next >= static_cast<int>(panel_.candidates.size())) return;
  panel_.cursor = next;
  host_->ShowPanel(panel_);
}

void TypingState::PageUp() {
  if (!Showing() || panel_.cursor < panel_.page_size) return;
  panel_.cursor = (panel_.cursor / panel_.page_size - 1) * panel_.page_size;
  host_->ShowPanel(panel_);
}

// --- Keys -----------------------------------------------------------------------------------

bool TypingState::HandleKey(const KeyPress& key) {
  using Kind = KeyPress::Kind;
  if (key.kind == Kind::kSwitchLanguage) {
    const auto& all = settings_.languages;
    size_t i = 0;
    while (i < all.size() && all[i] != language_) ++i;
    SetLanguage(all[(i + 1) % all.size()]);
    return true;
  }
  // A password or PIN is typed as it is, with nothing shown, learned or kept.
  if (field_.secret || key.kind == Kind::kModifier) return false;
  EnsureSession();  // before this key changes what the state holds
  if (key.shortcut) {
    Flush();  // what was typed stays as typed; the application handles the key
    return false;
  }
  if (HandleListKey(key)) return true;
  switch (key.kind) {
    case Kind::kBackspace:
      return HandleBackspace();
    case Kind::kEnter:
      break;
    case Kind::kText:
      if (!key.text.empty()) break;
      [[fallthrough]];
    default:
      Flush();  // arrows, Home, Delete, function keys: the cursor may move
      return false;
  }
  const std::string ch = key.kind == Kind::kEnter ? "\n" : key.text;
  return traits_.converts_reading ? HandleReadingKey(ch) : HandleWordKey(ch);
}

// Number keys, Tab, paging, Escape while the candidate window is open.
bool TypingState::HandleListKey(const KeyPress& key) {
  using Kind = KeyPress::Kind;
  if (!Showing()) return false;
  const bool composing = !preedit_.empty();
  const int page_start = panel_.cursor / panel_.page_size * panel_.page_size;
  // A word language types digits at a word start (after a space the window offers next words):
  // there only Tab picks. While composing, and where the pack says so, digits pick.
  const int digit = key.kind == Kind::kText ? DigitIndex(key.text) : -1;
  if (digit >= 0 && digit < panel_.page_size &&
      page_start + digit < static_cast<int>(panel_.candidates.size()) &&
      (composing || traits_.digits_pick_next_words)) {
    Pick(page_start + digit);
    return true;
  }
  if (key.kind == Kind::kTab) {
    Pick(panel_.cursor);
    return true;
  }
  // A converted reading also pages with "=" and "-" while composing (its letters never
  // include them).
  const bool reading_paging = traits_.converts_reading && composing && key.kind == Kind::kText;
  if (key.kind == Kind::kPageDown || (reading_paging && key.text == "=")) {
    PageDown();
    return true;
  }
  if (key.kind == Kind::kPageUp || (reading_paging && key.text == "-")) {
    PageUp();
    return true;
  }
  if (composing && (key.kind == Kind::kDown || key.kind == Kind::kUp)) {
    const int n = static_cast<int>(panel_.candidates.size());
    panel_.cursor = (panel_.cursor + (key.kind == Kind::kDown ? 1 : n - 1)) % n;
    host_->ShowPanel(panel_);
    return true;
  }
  if (key.kind == Kind::kEscape) {  // closes the window; what was typed stays
    dismissed_ = true;
    Draw();
    return true;
  }
  return false;
}

bool TypingState::HandleBackspace() {
  if (!preedit_.empty()) {
    PopLastChar(&preedit_);
    Send({{Edit::kBackspace, ""}});
    return true;
  }
  if (undo_.armed && settings_.undo_on_backspace) {
    UndoLastWord();
    return true;
  }
  // The application deletes the character; the session forgets it (without the word it would
  // reopen: that word is the application's now, not a composition).
  PopLastChar(&context_);
  Send({{Edit::kSetContext,
         traits_.word.reopens ? WithoutTrailingWord(context_, traits_.word) : context_}});
  return false;
}

// Backspace right after an autocorrection or a shortcut's expansion: the application gets the
// letters as typed back, as the preedit. The session undoes the correction there (never again
// at that spot; with learning, never again for this word); the trigger is ended as typed the
// next time, not expanded again.
void TypingState::UndoLastWord() {
  undo_.armed = false;
  const std::string committed = undo_.replacement + undo_.ending;
  host_->DeleteBefore(CharCount(committed));
  context_.resize(context_.size() >= committed.size() ? context_.size() - committed.size() : 0);
  preedit_ = undo_.typed;
  if (undo_.shortcut) {  // the session holds the application's text: the trigger is typed again
    literal_ = undo_.typed;
    Send({{Edit::kSetContext, context_}, {Edit::kType, undo_.typed, 1, NowMs()}});
    return;
  }
  // The session's text ends with the replacement and what ended it: delete back to the word's
  // end (the session then offers the typed letters), and take them back.
  Send({{Edit::kBackspace, "", CharCount(undo_.ending)}, {Edit::kCommit, undo_.typed}});
}

void TypingState::EndWord(const std::string& ending) {
  const bool fresh = CatchUp();
  const std::string typed = preedit_;
  preedit_.clear();
  // The person's shortcut, when the trigger is the whole preedit (not the end of "—omw"): the
  // expansion replaces it in the application, and the session gets the application's text
  // (set_context: neither the trigger nor the expansion, an address say, is learned as typed).
  const bool literal = typed == literal_;
  literal_.clear();
  const bool enter = ending == "\n";  // Enter reaches the application as the key itself
  if (!literal && fresh && decision_.shortcut_fire && !decision_.shortcut.empty() &&
      decision_.composition == typed) {
    CommitText(decision_.shortcut + (enter ? "" : ending));
    undo_ = {!enter, typed, decision_.shortcut, ending, true};
    Send({{Edit::kSetContext, enter ? context_ + ending : context_}});
    return;
  }
  const bool correct = fresh && decision_.autocorrect_apply &&
                       !decision_.autocorrect_replacement.empty() &&
                       decision_.autocorrect_replacement != typed;
  const std::string word = correct ? decision_.autocorrect_replacement : typed;
  CommitText(word + (enter ? "" : ending));
  std::vector<Edit> edits;
  if (correct) edits.push_back({Edit::kAutocorrect, word});  // else the letters stand
  edits.push_back({Edit::kType, ending, 1, NowMs()});
  undo_ = {correct && !enter, typed, word, ending, false};
  Send(std::move(edits));
}

bool TypingState::HandleWordKey(const std::string& ch) {
  if (ch != "\n" && ExtendsWord(traits_.word, preedit_, ch)) {
    undo_.armed = false;
    preedit_ += ch;
    Send({{Edit::kType, ch, 1, NowMs()}});
    return true;
  }
  if (!preedit_.empty() && traits_.enter == KeyAction::kCommitTyped && ch == "\n") {
    CommitAsTyped();
    return true;
  }
  if (!preedit_.empty()) {
    EndWord(ch);
  } else {
    undo_.armed = false;
    if (ch != "\n") CommitText(ch);
    Send({{Edit::kType, ch, 1, NowMs()}});
  }
  return ch != "\n";  // the application gets Enter
}

bool TypingState::HandleReadingKey(const std::string& ch) {
  if (ch != "\n" && ExtendsWord(traits_.word, preedit_, ch)) {
    preedit_ += ch;
    Send({{Edit::kType, ch, 1, NowMs()}});
    return true;
  }
  if (!preedit_.empty()) {
    const KeyAction action = ch == " "    ? traits_.space
                             : ch == "\n" ? traits_.enter
                                          : KeyAction::kType;
    if (action == KeyAction::kCommitTyped) {
      CommitAsTyped();
      return true;
    }
    // The first candidate (the sentence), by the pack's Space; before punctuation or anything
    // else too, which then follows it.
    if (CatchUp() && !decision_.candidates.empty()) {
      Pick(0);
      // Space leaves letters the first candidate did not convert to be converted next;
      // punctuation ends the composition.
      if (action == KeyAction::kPickFirst) return true;
      if (!preedit_.empty()) CommitAsTyped();
    } else {
      CommitAsTyped();
      if (action == KeyAction::kPickFirst) return true;
    }
  }
  if (ch == "\n") {
    Send({{Edit::kType, "\n", 1, NowMs()}});
    return false;  // the application gets Enter
  }
  std::string text = ch;
  if (settings_.native_punctuation) {
    for (const auto& [ascii, native] : traits_.punctuation) {
      if (ch == ascii) text = native;
    }
  }
  CommitText(text);
  Send({{Edit::kType, text, 1, NowMs()}});
  return true;
}

}  // namespace keydecide::ibus
