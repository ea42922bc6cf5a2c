#include "tools/personal_eval.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "keydecide/engine.h"
#include "keydecide/user_store.h"

namespace keydecide {

namespace {

// The history is typed in pieces of about this many bytes, each flushed to the store, so that
// the learner's queue (Learner::kQueueCapacity words) never overflows as it would under a
// typist thousands of times faster than a person. The learner flushes only then
// (EngineOptions::learn_flush_ms 0), so a run ranks alike at the same point of the text every
// time.
constexpr size_t kHistoryPieceBytes = 1500;

Status TypeHistory(Engine* engine, std::string_view history, AppType app) {
  SessionOptions options;
  options.app = app;
  auto session = engine->NewSession(options);
  size_t pos = 0;
  while (pos < history.size()) {
    size_t end = std::min(history.size(), pos + kHistoryPieceBytes);
    while (end < history.size() && history[end] != ' ' && history[end] != '\n') ++end;
    KD_RETURN_IF_ERROR(session->Type(history.substr(pos, end - pos)));
    KD_RETURN_IF_ERROR(engine->FlushLearning());
    pos = end;
  }
  KD_RETURN_IF_ERROR(session->Type("\n"));  // finishes the last word
  session.reset();                          // offers it
  return engine->FlushLearning();
}

// Types the history lines as a person converting each of them (see the header).
Status TypePinyinHistory(Engine* engine, const std::vector<PinyinEvalLine>& lines, AppType app,
                         int suggestions, PersonalPinyinResult* out) {
  constexpr size_t kLinesPerFlush = 10;  // within the learner's queue (512 words) for lines
                                         // of up to 51 words
  constexpr int kPagedCandidates = 50;   // five pages of ten
  SessionOptions options;
  options.app = app;
  auto session = engine->NewSession(options);
  Decision d;
  for (size_t n = 0; n < lines.size(); ++n) {
    const PinyinEvalLine& line = lines[n];
    KD_RETURN_IF_ERROR(session->Type(line.letters));
    size_t done = 0;  // bytes of the line's hanzi converted
    for (int step = 0; done < line.hanzi.size() && !session->composition().empty(); ++step) {
      const std::string_view rest = std::string_view(line.hanzi).substr(done);
      std::string_view choice;
      size_t rank = 0;
      // The first `suggestions` candidates; when none starts the rest, the person pages on
      // (a rare hanzi of a name is seldom on the first page).
      for (const int k : {suggestions, kPagedCandidates}) {
        if (step >= 64 || !choice.empty() || (k == kPagedCandidates && k <= suggestions)) break;
        KD_RETURN_IF_ERROR(session->Decide(k, &d));
        for (size_t i = 0; i < d.candidates.size(); ++i) {
          const std::string_view c = d.candidates[i].text;
          if (c == rest) {
            choice = c, rank = i;
            break;
          }
          if (!c.empty() && rest.starts_with(c) && c.size() > choice.size()) choice = c, rank = i;
        }
      }
      if (choice.empty()) {
        choice = rest;  // no candidate has it: the person makes it some other way
        ++out->history_typed;
      } else if (rank > 0) {
        ++out->history_picks;
      }
      const std::string accepted(choice);
      KD_RETURN_IF_ERROR(session->Accept(accepted));
      done += accepted.size();
    }
    KD_RETURN_IF_ERROR(session->Type("\n"));
    if ((n + 1) % kLinesPerFlush == 0) KD_RETURN_IF_ERROR(engine->FlushLearning());
  }
  session.reset();  // offers the last commit
  return engine->FlushLearning();
}

// A line cut into the words typed one at a time (see NextWordResult).
struct TypedWord {
  std::string hanzi, letters;
};

size_t CodePoints(std::string_view s) {
  return static_cast<size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

Status CutIntoWords(Session* session, const PinyinEvalLine& line, std::vector<TypedWord>* out) {
  constexpr int kCandidates = 50;
  out->clear();
  KD_RETURN_IF_ERROR(session->SetContext(""));
  KD_RETURN_IF_ERROR(session->Type(line.letters));
  Decision d;
  size_t done = 0, syllable = 0;  // bytes of the hanzi, syllables, converted
  while (done < line.hanzi.size() && syllable < line.syllables.size()) {
    const std::string_view rest = std::string_view(line.hanzi).substr(done);
    KD_RETURN_IF_ERROR(session->Decide(kCandidates, &d));
    std::string_view word;
    for (const Candidate& c : d.candidates) {
      if (c.kind != CandidateKind::kSentence && !c.text.empty() && rest.starts_with(c.text) &&
          c.text.size() > word.size()) {
        word = c.text;
      }
    }
    if (word.empty()) word = rest;  // the rest as one piece
    TypedWord typed{std::string(word), ""};
    const size_t n = CodePoints(word);
    for (size_t i = 0; i < n && syllable < line.syllables.size(); ++i) {
      typed.letters += line.syllables[syllable++];
    }
    KD_RETURN_IF_ERROR(session->Accept(typed.hanzi));
    done += typed.hanzi.size();
    out->push_back(std::move(typed));
  }
  return session->SetContext("");
}

Status EvalNextWords(const Engine& engine, const std::vector<std::vector<TypedWord>>& lines,
                     const SessionOptions& session_options, NextWordResult* out) {
  constexpr int kShown = 5;
  *out = NextWordResult();
  const std::unique_ptr<Session> session = engine.NewSession(session_options);
  Decision d;
  for (const std::vector<TypedWord>& words : lines) {
    KD_RETURN_IF_ERROR(session->SetContext(""));
    for (size_t i = 0; i < words.size(); ++i) {
      KD_RETURN_IF_ERROR(session->Type(words[i].letters));
      KD_RETURN_IF_ERROR(session->Decide(kShown, &d));
      KD_RETURN_IF_ERROR(session->Accept(words[i].hanzi));
      if (i + 1 == words.size()) break;
      KD_RETURN_IF_ERROR(session->Decide(kShown, &d));
      ++out->items;
      for (size_t k = 0; k < d.candidates.size() && k < kShown; ++k) {
        if (d.candidates[k].text != words[i + 1].hanzi) continue;
        out->top1 += k == 0;
        ++out->top5;
        break;
      }
    }
  }
  return Status::OK();
}

// The words of `language` ("" for all) in the store at `path`, into *count.
Status CountLearned(const std::string& path, std::string_view language, size_t* count) {
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = path;
  std::vector<LearnedWord> words;
  KD_RETURN_IF_ERROR(UserStore::Open(options, &store));
  KD_RETURN_IF_ERROR(store->List(language, &words));
  *count = words.size();
  return Status::OK();
}

// One fine-tuning round (Engine::FineTune), with its wall time.
Status TimedFineTune(Engine* engine, std::string* summary, double* seconds) {
  const auto start = std::chrono::steady_clock::now();
  const Status s = engine->FineTune(summary);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

void RemoveStore(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
}

}  // namespace

Status EvalPersonal(const EngineOptions& options, std::string_view history,
                    std::string_view also_history, std::string_view test, std::string_view general,
                    const std::string& store_path, const ReplayOptions& replay,
                    PersonalEvalResult* out, bool finetune, const PersonalEvalApps& apps) {
  *out = PersonalEvalResult();
  out->has_general = !general.empty();
  SessionOptions in_test;
  in_test.app = apps.test;
  {
    EngineOptions plain = options;
    plain.personal = false;
    std::unique_ptr<Engine> engine;
    KD_RETURN_IF_ERROR(Engine::Open(plain, &engine));
    KD_RETURN_IF_ERROR(Replay(test, engine->NewSession(in_test).get(), replay, &out->before));
    if (out->has_general) {
      KD_RETURN_IF_ERROR(
          Replay(general, engine->NewSession({}).get(), replay, &out->general_before));
    }
  }
  EngineOptions personal = options;
  personal.personal = true;
  personal.learn = true;
  personal.learn_flush_ms = 0;  // only TypeHistory's flushes: the same figures every run
  personal.user_store_path = store_path;
  personal.fine_tune = finetune;
  personal.fine_tune_every_words = 0;  // one round, when this function asks for it
  std::unique_ptr<Engine> engine;
  KD_RETURN_IF_ERROR(Engine::Open(personal, &engine));
  if (engine->info().personal.rfind("on: ", 0) != 0) {
    return Status::IOError("the user store did not open: " + engine->info().personal);
  }
  Status s = TypeHistory(engine.get(), history, apps.history);
  if (s.ok() && !also_history.empty()) s = TypeHistory(engine.get(), also_history, apps.also);
  SessionOptions no_learn;
  no_learn.no_learn = true;
  SessionOptions no_learn_in_test = in_test;
  no_learn_in_test.no_learn = true;
  if (s.ok()) s = Replay(test, engine->NewSession(no_learn_in_test).get(), replay, &out->after);
  if (s.ok() && out->has_general) {
    s = Replay(general, engine->NewSession(no_learn).get(), replay, &out->general_after);
  }
  if (s.ok() && finetune) {
    s = TimedFineTune(engine.get(), &out->finetune_summary, &out->finetune_seconds);
    out->finetuned = s.ok();
    if (s.ok()) {
      s = Replay(test, engine->NewSession(no_learn_in_test).get(), replay, &out->after_finetune);
    }
    if (s.ok() && out->has_general) {
      s = Replay(general, engine->NewSession(no_learn).get(), replay, &out->general_after_finetune);
    }
  }
  engine.reset();
  if (s.ok()) s = CountLearned(store_path, "", &out->learned_words);
  RemoveStore(store_path);
  return s;
}

Status EvalPersonalPinyin(const EngineOptions& options, const std::vector<PinyinEvalLine>& history,
                          const std::vector<PinyinEvalLine>& also_history,
                          const std::vector<PinyinEvalLine>& test,
                          const std::vector<PinyinEvalLine>& general, const std::string& store_path,
                          int suggestions, PersonalPinyinResult* out, bool finetune,
                          const PersonalEvalApps& apps) {
  *out = PersonalPinyinResult();
  out->has_general = !general.empty();
  SessionOptions in_test;
  in_test.app = apps.test;
  std::vector<std::vector<TypedWord>> test_words;
  {
    EngineOptions plain = options;
    plain.personal = false;
    std::unique_ptr<Engine> engine;
    KD_RETURN_IF_ERROR(Engine::Open(plain, &engine));
    KD_RETURN_IF_ERROR(EvalPinyin(test, *engine, &out->before, in_test));
    if (out->has_general) KD_RETURN_IF_ERROR(EvalPinyin(general, *engine, &out->general_before));
    const std::unique_ptr<Session> cutter = engine->NewSession(SessionOptions());
    for (const PinyinEvalLine& line : test) {
      KD_RETURN_IF_ERROR(CutIntoWords(cutter.get(), line, &test_words.emplace_back()));
    }
    KD_RETURN_IF_ERROR(EvalNextWords(*engine, test_words, in_test, &out->next_before));
  }
  EngineOptions personal = options;
  personal.personal = true;
  personal.learn = true;
  personal.learn_flush_ms = 0;  // only TypeHistory's flushes: the same figures every run
  personal.user_store_path = store_path;
  personal.fine_tune = finetune;
  personal.fine_tune_every_words = 0;  // one round, when this function asks for it
  std::unique_ptr<Engine> engine;
  KD_RETURN_IF_ERROR(Engine::Open(personal, &engine));
  if (engine->info().personal.rfind("on: ", 0) != 0) {
    return Status::IOError("the user store did not open: " + engine->info().personal);
  }
  Status s = TypePinyinHistory(engine.get(), history, apps.history, suggestions, out);
  if (s.ok() && !also_history.empty()) {
    s = TypePinyinHistory(engine.get(), also_history, apps.also, suggestions, out);
  }
  SessionOptions no_learn;
  no_learn.no_learn = true;
  SessionOptions no_learn_in_test = in_test;
  no_learn_in_test.no_learn = true;
  if (s.ok()) s = EvalPinyin(test, *engine, &out->after, no_learn_in_test);
  if (s.ok()) s = EvalNextWords(*engine, test_words, no_learn_in_test, &out->next_after);
  if (s.ok() && out->has_general) s = EvalPinyin(general, *engine, &out->general_after, no_learn);
  if (s.ok() && finetune) {
    s = TimedFineTune(engine.get(), &out->finetune_summary, &out->finetune_seconds);
    out->finetuned = s.ok();
    if (s.ok()) s = EvalPinyin(test, *engine, &out->after_finetune, no_learn_in_test);
    if (s.ok()) {
      s = EvalNextWords(*engine, test_words, no_learn_in_test, &out->next_after_finetune);
    }
    if (s.ok() && out->has_general) {
      s = EvalPinyin(general, *engine, &out->general_after_finetune, no_learn);
    }
  }
  engine.reset();
  if (s.ok()) s = CountLearned(store_path, options.language, &out->learned_words);
  RemoveStore(store_path);
  return s;
}

}  // namespace keydecide
