#include "keydecide_state.h"

#include <time.h>

#include <chrono>
#include <string_view>
#include <utility>

#include <fcitx-utils/keysym.h>
#include <fcitx-utils/utf8.h>
#include <fcitx/candidatelist.h>
#include <fcitx/inputpanel.h>
#include <fcitx/text.h>
#include <fcitx/userinterface.h>

#include "keydecide_engine.h"

namespace keydecide::fcitx5 {

namespace {

constexpr size_t kMaxContextBytes = 512;  // the session keeps its own, longer context
constexpr int32_t kEnglishCandidates = 10;
constexpr int32_t kPinyinCandidates = 20;

int64_t NowMs() {  // the key's time for the model, on the clock the C ABI asks for
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

bool IsAsciiLetter(std::string_view ch) {
  return ch.size() == 1 && ((ch[0] >= 'a' && ch[0] <= 'z') || (ch[0] >= 'A' && ch[0] <= 'Z'));
}

// A letter of a word being typed in English: ASCII letters, and any character beyond ASCII
// that the keyboard sends as text (é, ß); an apostrophe continues a started word ("don't").
bool ExtendsEnglishWord(std::string_view ch, const std::string& preedit) {
  if (IsAsciiLetter(ch) || static_cast<unsigned char>(ch[0]) >= 0x80) return true;
  return !preedit.empty() && (ch == "'" || ch == "\u2019");
}

void PopLastChar(std::string* s) {
  if (s->empty()) return;
  size_t i = s->size() - 1;
  while (i > 0 && (static_cast<unsigned char>((*s)[i]) & 0xC0) == 0x80) --i;
  s->resize(i);
}

// Text up to its trailing word (what ExtendsEnglishWord takes as a word's characters: "café",
// "don't"): the English session would reopen that word as the composition, while the
// application has it already committed.
std::string WithoutTrailingWord(std::string text) {
  while (!text.empty()) {
    std::string rest = text;
    PopLastChar(&rest);
    if (!ExtendsEnglishWord(std::string_view(text).substr(rest.size()), "x")) break;
    text = std::move(rest);
  }
  return text;
}

std::string FullWidth(const std::string& ch) {
  static const std::pair<const char*, const char*> kMap[] = {{",", "，"}, {".", "。"}, {"?", "？"},
                                                             {"!", "！"}, {":", "："}, {";", "；"},
                                                             {"(", "（"}, {")", "）"}};
  for (const auto& [ascii, wide] : kMap) {
    if (ch == ascii) return wide;
  }
  return ch;
}

class KeydecideCandidate : public fcitx::CandidateWord {
 public:
  KeydecideCandidate(KeydecideEngine* engine, const std::string& text, int index)
      : fcitx::CandidateWord(fcitx::Text(text)), engine_(engine), index_(index) {}
  void select(fcitx::InputContext* ic) const override { engine_->state(ic)->Pick(index_); }

 private:
  KeydecideEngine* engine_;
  int index_;  // in the decision's candidates
};

}  // namespace

KeydecideState::KeydecideState(KeydecideEngine* engine, fcitx::InputContext* ic)
    : engine_(engine), ic_(ic), language_(*engine->config().language) {}

KeydecideState::~KeydecideState() {
  if (worker_generation_ != engine_->worker_generation()) return;
  for (uint64_t id : sessions_) {
    if (id != 0) engine_->worker().Close(id);
  }
}

void KeydecideState::SetLanguage(Language language) {
  Flush();
  language_ = language;
}

// --- Talking to the session ---------------------------------------------------------------

void KeydecideState::EnsureSession() {
  DecisionWorker& worker = engine_->worker();
  if (worker_generation_ != engine_->worker_generation()) {  // a new engine: new sessions
    worker_generation_ = engine_->worker_generation();
    sessions_[0] = sessions_[1] = 0;
  }
  uint64_t& id = sessions_[language_ == Language::Pinyin ? 1 : 0];
  if (id == 0) {
    SessionSpec spec;
    // (Copied from std::strings: GCC 12 warns falsely about assigning a literal chosen by ?:.)
    static const std::string kZh = "zh", kEn = "en";
    spec.language = language_ == Language::Pinyin ? kZh : kEn;
    const auto caps = ic_->capabilityFlags();
    if (caps.test(fcitx::CapabilityFlag::Url) || caps.test(fcitx::CapabilityFlag::Email)) {
      spec.app = KD_APP_URL;
    } else if (caps.test(fcitx::CapabilityFlag::Terminal)) {
      spec.app = KD_APP_CODE;
    }
    // A terminal never flags its password prompts (sudo, ssh): nothing typed there is learned
    // unless the person allows it (LearnInTerminals). A field that says its text is private
    // (Sensitive: GTK's INPUT_HINT_PRIVATE, Qt's ImhSensitiveData) gets candidates but teaches
    // nothing.
    spec.no_learn =
        (caps.test(fcitx::CapabilityFlag::Terminal) && !*engine_->config().learnInTerminals) ||
        caps.test(fcitx::CapabilityFlag::Sensitive);
    // A field that asks for no spell checking is never autocorrected (candidates still show).
    spec.autocorrect_level = caps.test(fcitx::CapabilityFlag::NoSpellCheck)
                                 ? KD_AUTOCORRECT_OFF
                                 : static_cast<int32_t>(*engine_->config().autocorrect);
    spec.n_candidates = language_ == Language::Pinyin ? kPinyinCandidates : kEnglishCandidates;
    id = worker.Open(spec);
    // The session starts empty; give it what this state holds (the letters reopen as its
    // composition).
    if (!context_.empty() || !preedit_.empty()) Send({{Edit::kSetContext, context_ + preedit_}});
  }
}

void KeydecideState::Send(std::vector<Edit> edits) {
  EnsureSession();
  DecisionWorker& worker = engine_->worker();
  const uint64_t id = sessions_[language_ == Language::Pinyin ? 1 : 0];
  const uint64_t seq = ++sent_;
  fcitx::TrackableObjectReference<fcitx::InputContext> ref = ic_->watch();
  KeydecideEngine* engine = engine_;
  last_pending_ = worker.Submit(id, std::move(edits), [engine, ref, seq](const Answer& a) {
    if (fcitx::InputContext* ic = ref.get()) engine->state(ic)->OnAnswer(seq, a);
  });
  worker.Wait(last_pending_, std::chrono::milliseconds(*engine_->config().waitMs));
  if (!Fresh()) Draw();
}

bool KeydecideState::CatchUp() {
  if (last_pending_ && !Fresh()) {
    engine_->worker().Wait(last_pending_, std::chrono::milliseconds(*engine_->config().waitMs));
  }
  return Fresh();
}

void KeydecideState::OnAnswer(uint64_t seq, const Answer& answer) {
  if (seq <= answered_) return;         // an older batch's answer came late
  if (answer.rc == KD_SESSION_RESET) {  // the daemon restarted: give the new session our text
    Send({{Edit::kSetContext, context_ + preedit_}});
    return;
  }
  answered_ = seq;
  if (answer.rc != KD_OK) {
    // Without an engine (the models or the daemon are missing) the keys are typed as they are.
    engine_->ReportError(answer.error);
    decision_ = DecisionCopy();
    decision_.composition = preedit_;
    if (seq == sent_) Draw();
    return;
  }
  decision_ = answer.decision;
  if (seq == sent_) {
    preedit_ = decision_.composition;  // a fresh decision's composition is the preedit
    Draw();
  }
}

// --- Drawing --------------------------------------------------------------------------------

void KeydecideState::Draw() {
  fcitx::InputPanel& panel = ic_->inputPanel();
  panel.reset();
  if (!preedit_.empty()) {
    const bool pinyin = language_ == Language::Pinyin;
    const std::string shown =
        pinyin && Fresh() && !decision_.preedit.empty() ? decision_.preedit : preedit_;
    fcitx::Text preedit(shown, fcitx::TextFormatFlag::Underline);
    preedit.setCursor(static_cast<int>(shown.size()));
    if (ic_->capabilityFlags().test(fcitx::CapabilityFlag::Preedit)) {
      panel.setClientPreedit(preedit);
    } else {
      panel.setPreedit(preedit);
    }
  }
  // English shows the bar when the decision says it helps; pinyin whenever it has candidates.
  const bool show = Fresh() && !decision_.candidates.empty() &&
                    (language_ == Language::Pinyin || decision_.popup_show);
  DrawCandidates(show);
  ic_->updatePreedit();
  ic_->updateUserInterface(fcitx::UserInterfaceComponent::InputPanel);
}

void KeydecideState::DrawCandidates(bool show) {
  if (!show) return;
  auto list = std::make_unique<fcitx::CommonCandidateList>();
  list->setPageSize(*engine_->config().pageSize);
  list->setLayoutHint(fcitx::CandidateLayoutHint::Horizontal);
  list->setLabels({"1. ", "2. ", "3. ", "4. ", "5. ", "6. ", "7. ", "8. ", "9. ", "10. "});
  for (size_t i = 0; i < decision_.candidates.size(); ++i) {
    list->append<KeydecideCandidate>(engine_, decision_.candidates[i].text, static_cast<int>(i));
  }
  list->setGlobalCursorIndex(0);
  ic_->inputPanel().setCandidateList(std::move(list));
}

// --- Committing -----------------------------------------------------------------------------

void KeydecideState::CommitText(const std::string& text) {
  if (text.empty()) return;
  ic_->commitString(text);
  context_ += text;
  if (context_.size() > kMaxContextBytes) {
    size_t cut = context_.size() - kMaxContextBytes;
    while (cut < context_.size() && (static_cast<unsigned char>(context_[cut]) & 0xC0) == 0x80) {
      ++cut;
    }
    context_.erase(0, cut);
  }
}

void KeydecideState::CommitAsTyped() {
  if (preedit_.empty()) return;
  const std::string letters = preedit_;
  CommitText(letters);
  preedit_.clear();
  Send({{Edit::kCommit, letters}});
}

void KeydecideState::Flush() {
  if (!preedit_.empty()) {
    CommitText(preedit_);
    preedit_.clear();
  }
  undo_.armed = false;
  literal_.clear();
  context_.clear();
  if (sent_ > 0) Send({{Edit::kSetContext, ""}});
  ic_->inputPanel().reset();
  ic_->updatePreedit();
  ic_->updateUserInterface(fcitx::UserInterfaceComponent::InputPanel);
}

void KeydecideState::Pick(int index) {
  CatchUp();
  if (index < 0 || static_cast<size_t>(index) >= decision_.candidates.size()) return;
  const std::string text = decision_.candidates[index].text;
  undo_.armed = false;
  literal_.clear();
  if (language_ == Language::English) {
    // A word picked is followed by a space, as the replay's keystroke savings count it.
    CommitText(text + " ");
    preedit_.clear();
    Send({{Edit::kCommit, text}, {Edit::kType, " "}});
  } else {
    // Pinyin: the word's letters are converted; the rest stays in the preedit (the answer).
    CommitText(text);
    preedit_.clear();
    Send({{Edit::kCommit, text}});
  }
}

// --- Keys -----------------------------------------------------------------------------------

void KeydecideState::HandleKey(fcitx::KeyEvent& event) {
  if (event.isRelease()) return;
  const fcitx::Key key = event.key();
  if (key.checkKeyList(*engine_->config().switchKey)) {
    SetLanguage(language_ == Language::English ? Language::Pinyin : Language::English);
    engine_->instance()->showInputMethodInformation(ic_);
    event.filterAndAccept();
    return;
  }
  // A password or PIN field (fcitx5's clients flag a PIN as a password) is typed as it is,
  // with nothing shown, learned or kept. A private (Sensitive) field only learns nothing.
  if (ic_->capabilityFlags().test(fcitx::CapabilityFlag::Password)) return;
  if (key.isModifier()) return;
  EnsureSession();
  if (key.states().testAny(
          fcitx::KeyStates{fcitx::KeyState::Ctrl, fcitx::KeyState::Alt, fcitx::KeyState::Super})) {
    Flush();  // a shortcut: what was typed stays as typed; the application handles the key
    return;
  }
  if (HandleListKey(key)) {
    event.filterAndAccept();
    return;
  }
  if (key.check(FcitxKey_BackSpace)) {
    HandleBackspace(event);
    return;
  }
  std::string ch = fcitx::Key::keySymToUTF8(key.sym());
  if (key.check(FcitxKey_Return) || key.check(FcitxKey_KP_Enter)) ch.assign(1, '\n');
  if (ch.empty() || (static_cast<unsigned char>(ch[0]) < 0x20 && ch != "\n")) {
    Flush();  // arrows, Home, Delete, function keys: the cursor may move
    return;
  }
  if (language_ == Language::English) {
    HandleEnglish(event, ch);
  } else {
    HandlePinyin(event, key, ch);
  }
}

// Number keys, Tab, paging, Escape while the candidate window is open.
bool KeydecideState::HandleListKey(const fcitx::Key& key) {
  auto list = ic_->inputPanel().candidateList();
  if (!list || list->size() == 0) return false;
  auto* common = dynamic_cast<fcitx::CommonCandidateList*>(list.get());
  if (common == nullptr) return false;
  const bool composing = !preedit_.empty();
  // English types digits at a word start (after a space the bar shows next words): there only
  // Tab picks. While a word or pinyin is being typed, and for 联想, digits pick.
  const int digit = key.digitSelection();
  if (digit >= 0 && digit < list->size() && (composing || language_ == Language::Pinyin)) {
    Pick(common->currentPage() * common->pageSize() + digit);
    return true;
  }
  if (key.check(FcitxKey_Tab)) {
    Pick(common->globalCursorIndex() >= 0 ? common->globalCursorIndex() : 0);
    return true;
  }
  const bool next = key.check(FcitxKey_Page_Down) ||
                    (language_ == Language::Pinyin && composing && key.check(FcitxKey_equal));
  const bool prev = key.check(FcitxKey_Page_Up) ||
                    (language_ == Language::Pinyin && composing && key.check(FcitxKey_minus));
  if ((next && common->hasNext()) || (prev && common->hasPrev())) {
    next ? common->next() : common->prev();
    ic_->updateUserInterface(fcitx::UserInterfaceComponent::InputPanel);
    return true;
  }
  if (composing && (key.check(FcitxKey_Down) || key.check(FcitxKey_Up))) {
    key.check(FcitxKey_Down) ? common->nextCandidate() : common->prevCandidate();
    ic_->updateUserInterface(fcitx::UserInterfaceComponent::InputPanel);
    return true;
  }
  if (key.check(FcitxKey_Escape)) {  // closes the window; what was typed stays
    ic_->inputPanel().setCandidateList(nullptr);
    ic_->updateUserInterface(fcitx::UserInterfaceComponent::InputPanel);
    return true;
  }
  return false;
}

void KeydecideState::HandleBackspace(fcitx::KeyEvent& event) {
  if (!preedit_.empty()) {
    PopLastChar(&preedit_);
    Send({{Edit::kBackspace, ""}});
    event.filterAndAccept();
    return;
  }
  if (undo_.armed && *engine_->config().undoOnBackspace) {
    UndoLastWord();
    event.filterAndAccept();
    return;
  }
  // The application deletes the character; the session forgets it (English without the
  // word it would reopen: that word is the application's now, not a composition).
  PopLastChar(&context_);
  Send({{Edit::kSetContext,
         language_ == Language::English ? WithoutTrailingWord(context_) : context_}});
}

// Backspace right after an autocorrection or a shortcut's expansion: the application gets the
// letters as typed back, as the preedit. The session undoes the correction there (never again
// at that spot; with learning, never again for this word); the trigger is ended as typed the
// next time, not expanded again.
void KeydecideState::UndoLastWord() {
  undo_.armed = false;
  const std::string committed = undo_.replacement + undo_.ending;
  const int chars = static_cast<int>(fcitx::utf8::length(committed));
  if (ic_->capabilityFlags().test(fcitx::CapabilityFlag::SurroundingText) &&
      ic_->surroundingText().isValid()) {
    ic_->deleteSurroundingText(-chars, static_cast<unsigned int>(chars));
  } else {
    for (int i = 0; i < chars; ++i) {
      ic_->forwardKey(fcitx::Key(FcitxKey_BackSpace), false);
      ic_->forwardKey(fcitx::Key(FcitxKey_BackSpace), true);
    }
  }
  context_.resize(context_.size() >= committed.size() ? context_.size() - committed.size() : 0);
  preedit_ = undo_.typed;
  if (undo_.shortcut) {  // the session holds the application's text: the trigger is typed again
    literal_ = undo_.typed;
    Send({{Edit::kSetContext, context_}, {Edit::kType, undo_.typed, 1, NowMs()}});
    return;
  }
  // The session's text ends with the replacement and what ended it: delete back to the word's
  // end (the session then offers the typed letters), and take them back.
  Send({{Edit::kBackspace, "", static_cast<int32_t>(fcitx::utf8::length(undo_.ending))},
        {Edit::kCommit, undo_.typed}});
}

void KeydecideState::EndEnglishWord(const std::string& ending) {
  const bool fresh = CatchUp();
  const std::string typed = preedit_;
  preedit_.clear();
  // The person's shortcut, when the trigger is the whole preedit (not the end of "—omw"): the
  // expansion replaces it in the application, and the session gets the application's text
  // (set_context: neither the trigger nor the expansion, an address say, is learned as typed).
  const bool literal = typed == literal_;
  literal_.clear();
  if (!literal && fresh && decision_.shortcut_fire && !decision_.shortcut.empty() &&
      decision_.composition == typed) {
    CommitText(decision_.shortcut + (ending == "\n" ? "" : ending));
    undo_ = {ending != "\n", typed, decision_.shortcut, ending, true};
    Send({{Edit::kSetContext, ending == "\n" ? context_ + ending : context_}});  // Enter: the app's
    return;
  }
  const bool correct = fresh && decision_.autocorrect_apply &&
                       !decision_.autocorrect_replacement.empty() &&
                       decision_.autocorrect_replacement != typed;
  const std::string word = correct ? decision_.autocorrect_replacement : typed;
  // Enter reaches the application as the key itself (it may send the message).
  CommitText(word + (ending == "\n" ? "" : ending));
  std::vector<Edit> edits;
  if (correct) edits.push_back({Edit::kAutocorrect, word});  // else the letters stand
  edits.push_back({Edit::kType, ending, 1, NowMs()});
  undo_ = {correct && ending != "\n", typed, word, ending, false};
  Send(std::move(edits));
}

void KeydecideState::HandleEnglish(fcitx::KeyEvent& event, const std::string& ch) {
  if (ch != "\n" && ExtendsEnglishWord(ch, preedit_)) {
    undo_.armed = false;
    preedit_ += ch;
    Send({{Edit::kType, ch, 1, NowMs()}});
    event.filterAndAccept();
    return;
  }
  if (!preedit_.empty()) {
    EndEnglishWord(ch);
  } else {
    undo_.armed = false;
    if (ch != "\n") CommitText(ch);
    Send({{Edit::kType, ch, 1, NowMs()}});
  }
  if (ch == "\n") return;  // the application gets Enter
  event.filterAndAccept();
}

void KeydecideState::HandlePinyin(fcitx::KeyEvent& event, const fcitx::Key& key,
                                  const std::string& ch) {
  const bool letter = ch.size() == 1 && ch[0] >= 'a' && ch[0] <= 'z';
  if (letter || (ch == "'" && !preedit_.empty())) {
    preedit_ += ch;
    Send({{Edit::kType, ch, 1, NowMs()}});
    event.filterAndAccept();
    return;
  }
  if (!preedit_.empty()) {
    if (key.check(FcitxKey_space)) {  // the first candidate: the sentence
      if (CatchUp() && !decision_.candidates.empty()) {
        Pick(0);
      } else {
        CommitAsTyped();
      }
      event.filterAndAccept();
      return;
    }
    if (ch == "\n") {  // the letters as typed
      CommitAsTyped();
      event.filterAndAccept();
      return;
    }
    // Punctuation or anything else ends the composition with its first candidate.
    if (CatchUp() && !decision_.candidates.empty()) {
      Pick(0);
      if (!preedit_.empty()) CommitAsTyped();
    } else {
      CommitAsTyped();
    }
  }
  if (ch == "\n") {
    Send({{Edit::kType, "\n", 1, NowMs()}});
    return;  // the application gets Enter
  }
  const std::string text = *engine_->config().fullWidthPunctuation ? FullWidth(ch) : ch;
  CommitText(text);
  Send({{Edit::kType, text, 1, NowMs()}});
  event.filterAndAccept();
}

}  // namespace keydecide::fcitx5
