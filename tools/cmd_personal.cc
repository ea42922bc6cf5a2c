// keydecide personal list | forget | export | import | clear: the person sees and erases what
// the engine learned (keydecide/user_store.h, docs/PERSONAL.md); and keydecide eval personal.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "keydecide/user_store.h"
#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/personal_eval.h"
#include "tools/quantile.h"
#include "tools/text_file.h"

namespace keydecide {

namespace {

// Opens the store to write; with `may_read_only` (list, export), a store this user cannot
// write (a read-only mount, a 0400 file, a read-only folder) is opened to read instead.
std::unique_ptr<UserStore> OpenStoreOrDie(const std::string& path, bool may_read_only = false) {
  UserStoreOptions options;
  options.path = path;
  std::unique_ptr<UserStore> store;
  Status s = UserStore::Open(options, &store);
  if (!s.ok() && s.code() == Status::Code::kIOError && may_read_only) {
    options.read_only = true;
    if (UserStore::Open(options, &store).ok()) s = Status::OK();
  }
  CheckOrDie(s, "cannot open the user store");
  const std::string& aside = store->set_aside_path();
  if (aside.find("-wal.stale-") != std::string::npos) {
    std::cerr << "keydecide: the user store's log (-wal) did not belong to it (a store restored "
                 "from a backup?); the log is kept as "
              << aside << ", the store opened without it\n";
  } else if (!aside.empty()) {
    std::cerr << "keydecide: the user store was damaged; kept as " << aside
              << ", starting afresh\n";
  }
  return store;
}

// Says on stderr what an export or import left out or brought into range (positions and
// fields only: never a word).
void ReportTransfer(const char* what, const TransferReport& r) {
  if (r.skipped == 0 && r.clamped == 0) return;
  std::cerr << "keydecide: " << what << " left out " << r.skipped << " entr"
            << (r.skipped == 1 ? "y" : "ies") << " and brought " << r.clamped << " into range\n";
  for (const std::string& note : r.notes) std::cerr << "  " << note << "\n";
  if (r.skipped > r.notes.size()) std::cerr << "  ...\n";
}

// The next character of `s` at *pos (advancing it), or false for a byte that does not start a
// valid UTF-8 sequence (*pos is then left as it was). The CLI sees only the public API, so
// this small decoder is its own.
bool NextChar(std::string_view s, size_t* pos, char32_t* cp) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(*pos);
  const size_t n = b0 < 0x80         ? 1
                   : (b0 >> 5) == 6  ? 2
                   : (b0 >> 4) == 14 ? 3
                   : (b0 >> 3) == 30 ? 4
                                     : 0;
  if (n == 0 || *pos + n > s.size()) return false;
  char32_t c = n == 1 ? b0 : b0 & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((byte(*pos + i) & 0xC0) != 0x80) return false;
    c = (c << 6) | (byte(*pos + i) & 0x3F);
  }
  const char32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
  *pos += n;
  *cp = c;
  return true;
}

// A word as `list` shows it: controls, bidi controls (U+202E and the like, which would show
// another word than the one stored) and bytes that are not UTF-8 escaped (\u{202e}, \xff).
std::string Shown(std::string_view word) {
  std::string out;
  for (size_t pos = 0; pos < word.size();) {
    const size_t start = pos;
    char32_t cp;
    char buf[16];
    if (!NextChar(word, &pos, &cp)) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(word[start]));
      out += buf;
      pos = start + 1;
    } else if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || (cp >= 0x202A && cp <= 0x202E) ||
               (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F || cp == 0x061C) {
      std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(word.substr(start, pos - start));
    }
  }
  return out;
}

// Writes `text` to `path` as the person's private file: created 0600 (an export holds every
// learned word and the recent text), a file already there narrowed to 0600 before it is
// written.
Status WritePrivateFile(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::IOError("cannot write " + path + ": " + std::strerror(errno));
  Status s;
  if (::fchmod(fd, 0600) != 0) s = Status::IOError("cannot make " + path + " private (0600)");
  for (size_t off = 0; s.ok() && off < text.size();) {
    const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      s = Status::IOError("cannot write " + path + ": " + std::strerror(errno));
      break;
    }
    off += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && s.ok()) s = Status::IOError("cannot write " + path);
  return s;
}

std::string IsoDate(int64_t unix_time) {
  const std::time_t t = static_cast<std::time_t>(unix_time);
  std::tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Unix seconds from "<seconds>" or "YYYY-MM-DD" (UTC midnight).
int64_t ParseTimeOrDie(const std::string& s) {
  std::tm tm{};
  if (strptime(s.c_str(), "%Y-%m-%d", &tm) != nullptr && s.size() == 10) {
    return static_cast<int64_t>(timegm(&tm));
  }
  try {
    size_t used = 0;
    const long long v = std::stoll(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  Die(kUsageExit, "Usage", "personal", "not a time (unix seconds or YYYY-MM-DD): " + s);
}

void AddStoreOption(CLI::App* cmd, std::string* path) {
  cmd->add_option("--store", *path, "The user store (default: $XDG_DATA_HOME/keydecide/user.db)");
}

}  // namespace

void AddPersonalCommand(CLI::App* app) {
  auto* personal = app->add_subcommand("personal", "See and erase what keydecide learned");
  personal->require_subcommand(1);

  struct Args {
    std::string store, language, out, from, to, trigger, expansion;
    std::vector<std::string> words;
    bool json = false, yes = false;
  };
  auto args = std::make_shared<Args>();

  auto* list = personal->add_subcommand("list", "Learned words with counts and when");
  AddStoreOption(list, &args->store);
  list->add_option("--language", args->language, "Only this language (en, zh)");
  list->add_flag("--json", args->json, "Print the export format instead of a table");
  list->callback([args] {
    auto store = OpenStoreOrDie(args->store, /*may_read_only=*/true);
    if (args->json) {
      std::string json;
      TransferReport report;
      CheckOrDie(store->Export(&json, &report), "cannot list");
      ReportTransfer("the list", report);
      std::cout << json;
      return;
    }
    std::vector<LearnedWord> words;
    CheckOrDie(store->List(args->language, &words), "cannot list");
    std::printf("%-4s %-24s %7s %6s  %-20s  %s\n", "lang", "word", "count", "picks", "first used",
                "last used");
    for (const LearnedWord& w : words) {
      std::printf("%-4s %-24s %7u %6u  %-20s  %s\n", Shown(w.language).c_str(),
                  Shown(w.word).c_str(), w.count, w.picks, IsoDate(w.first_time).c_str(),
                  IsoDate(w.last_time).c_str());
    }
    std::printf("%zu words (%s)\n", words.size(), store->path().c_str());
  });

  auto* forget = personal->add_subcommand(
      "forget", "Forget words (any case, with the word pairs they are in), or a time range");
  AddStoreOption(forget, &args->store);
  forget->add_option("words", args->words, "Words to forget");
  forget->add_option("--from", args->from, "Forget what was last used from (unix s, YYYY-MM-DD)");
  forget->add_option("--to", args->to, "... up to, not including (unix s, YYYY-MM-DD)");
  forget->callback([args] {
    if (args->words.empty() == (args->from.empty() && args->to.empty())) {
      Die(kUsageExit, "Usage", "personal forget", "give words, or --from and/or --to");
    }
    auto store = OpenStoreOrDie(args->store);
    int total = 0, removed = 0;
    for (const std::string& w : args->words) {
      CheckOrDie(store->Forget(w, &removed), "cannot forget");
      total += removed;
    }
    if (args->words.empty()) {
      const int64_t from = args->from.empty() ? 0 : ParseTimeOrDie(args->from);
      const int64_t to = args->to.empty() ? INT64_MAX : ParseTimeOrDie(args->to);
      CheckOrDie(store->ForgetRange(from, to, &total), "cannot forget");
    }
    std::printf("forgot %d entries (words and word pairs)\n", total);
  });

  auto* exp = personal->add_subcommand("export", "Write everything learned as JSON");
  AddStoreOption(exp, &args->store);
  exp->add_option("--out", args->out, "File to write (default: standard output)");
  exp->callback([args] {
    auto store = OpenStoreOrDie(args->store, /*may_read_only=*/true);
    std::string json;
    TransferReport report;
    CheckOrDie(store->Export(&json, &report), "cannot export");
    ReportTransfer("the export", report);
    if (args->out.empty()) {
      std::cout << json;
      return;
    }
    CheckOrDie(WritePrivateFile(args->out, json), "cannot export");
  });

  auto* imp = personal->add_subcommand("import", "Add an export's words to the store");
  AddStoreOption(imp, &args->store);
  imp->add_option("file", args->out, "The export (JSON)")->required();
  imp->callback([args] {
    // No more than an export may hold (and one byte to tell a larger file): a larger stream is
    // refused once that much is read.
    std::string json;
    const Status read = ReadTextFile(args->out == "-" ? "/dev/stdin" : args->out, &json,
                                     UserStore::kMaxExportBytes + 1);
    if (read.code() != Status::Code::kInvalidArgument)
      CheckOrDie(read, "cannot import " + args->out);
    if (!read.ok() || json.size() > UserStore::kMaxExportBytes) {
      CheckOrDie(Status::InvalidArgument("larger than an export may be (256 MiB)"),
                 "cannot import " + args->out);
    }
    auto store = OpenStoreOrDie(args->store);
    TransferReport report;
    CheckOrDie(store->Import(json, &report), "cannot import " + args->out);
    ReportTransfer("the import", report);
    std::vector<LearnedWord> words;
    CheckOrDie(store->List("", &words), "cannot list");
    std::printf("imported; the store holds %zu words\n", words.size());
  });

  // Shortcuts: typing a trigger as a word offers its expansion (docs/PERSONAL.md).
  auto* shortcut = personal->add_subcommand("shortcut", "Text expansions: omw -> On my way!");
  shortcut->require_subcommand(1);
  auto* add = shortcut->add_subcommand("add", "Add a shortcut, or give a trigger a new expansion");
  AddStoreOption(add, &args->store);
  add->add_option("trigger", args->trigger, "What is typed: a word (letters, any case)")
      ->required();
  add->add_option("expansion", args->expansion, "What it becomes (up to 1024 bytes)")->required();
  add->callback([args] {
    auto store = OpenStoreOrDie(args->store);
    CheckOrDie(store->SetShortcut(args->trigger, args->expansion), "cannot add the shortcut");
    std::printf("shortcut added\n");
  });
  auto* remove = shortcut->add_subcommand("remove", "Remove shortcuts");
  AddStoreOption(remove, &args->store);
  remove->add_option("triggers", args->words, "Their triggers")->required();
  remove->callback([args] {
    auto store = OpenStoreOrDie(args->store);
    int removed = 0;
    for (const std::string& t : args->words) {
      bool was = false;
      CheckOrDie(store->RemoveShortcut(t, &was), "cannot remove the shortcut");
      removed += was;
    }
    std::printf("removed %d shortcut%s\n", removed, removed == 1 ? "" : "s");
  });
  auto* shortcuts = shortcut->add_subcommand("list", "The shortcuts, by trigger");
  AddStoreOption(shortcuts, &args->store);
  shortcuts->callback([args] {
    auto store = OpenStoreOrDie(args->store, /*may_read_only=*/true);
    std::vector<Shortcut> all;
    CheckOrDie(store->ListShortcuts(&all), "cannot list the shortcuts");
    for (const Shortcut& sc : all) {
      nlohmann::json expansion = sc.expansion;  // new lines and tabs shown escaped
      std::printf(
          "%-16s %s\n", Shown(sc.trigger).c_str(),
          Shown(expansion.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).c_str());
    }
    std::printf("%zu shortcuts (%s)\n", all.size(), store->path().c_str());
  });

  // One fine-tuning round on the store's recent text, as the engine runs them in the background
  // with EngineOptions::fine_tune (docs/PERSONAL.md, "Fine-tuning").
  auto engine_flags = std::make_shared<EngineFlags>();
  auto* finetune = personal->add_subcommand(
      "finetune", "Train the model's adapter on the person's recent text now");
  AddStoreOption(finetune, &args->store);
  engine_flags->AddTo(finetune);
  finetune->callback([args, engine_flags] {
    EngineOptions options = engine_flags->Options();
    options.personal = true;
    options.user_store_path = args->store;
    options.fine_tune = true;
    options.fine_tune_every_words = 0;
    std::unique_ptr<Engine> engine;
    CheckOrDie(Engine::Open(options, &engine), "cannot open the engine");
    std::string summary;
    CheckOrDie(engine->FineTune(&summary), "fine-tuning");
    std::printf("%s\n", summary.c_str());
  });

  auto* clear = personal->add_subcommand("clear", "Forget everything learned, and the shortcuts");
  AddStoreOption(clear, &args->store);
  clear->add_flag("--yes", args->yes, "Yes, forget everything")->required();
  clear->callback([args] {
    auto store = OpenStoreOrDie(args->store);
    CheckOrDie(store->Clear(), "cannot clear");
    std::printf("cleared %s\n", store->path().c_str());
  });
}

namespace {

// A fresh store for one evaluation, in $TMPDIR (else /tmp).
std::string EvalStorePath() {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/keydecide_eval_" + std::to_string(getpid()) +
         ".db";
}

}  // namespace

void AddEvalPersonalCommand(CLI::App* eval) {
  struct Args {
    EngineFlags engine;
    std::string history, test, general;
    std::string also_history;
    AppType history_app = AppType::kChat, also_history_app = AppType::kChat;
    AppType test_app = AppType::kChat;
    float app_share = EngineOptions().user_app_share;
    size_t max_chars = 0;
    int suggestions = 3;
    float word_weight = EngineOptions().user_word_weight;
    float pair_weight = EngineOptions().user_pair_weight;
    float new_word = EngineOptions().user_new_word_bonus;
    float pinyin_word_weight = EngineOptions().pinyin.user_word_weight;
    float pinyin_pair_weight = EngineOptions().pinyin.user_pair_weight;
    size_t max_lines = 0;
    bool json = false;
    bool finetune = false;
    std::optional<float> fine_tune_weight;  // unset: the language's default
  };
  auto args = std::make_shared<Args>();
  auto* cmd = eval->add_subcommand(
      "personal",
      "KSR on a person's later text before and after learning their earlier text (--lang zh: "
      "sentence top-1 on pinyin eval files, hanzi<TAB>letters<TAB>syllables)");
  args->engine.AddTo(cmd);
  cmd->add_option("--history", args->history, "The person's earlier text, learned")->required();
  cmd->add_option("--test", args->test, "Their later text, replayed")->required();
  cmd->add_option("--general", args->general, "General text, replayed (the cost of learning)");
  cmd->add_option("--max-chars", args->max_chars, "Replay only the first N bytes (0 = all)");
  cmd->add_option("--suggestions", args->suggestions,
                  "Candidates the typist looks at (zh history: pages on through 50 when none "
                  "starts the rest)")
      ->check(CLI::Range(1, 200))
      ->capture_default_str();
  cmd->add_option("--user-word-weight", args->word_weight)->capture_default_str();
  cmd->add_option("--user-pair-weight", args->pair_weight)->capture_default_str();
  cmd->add_option("--user-new-word-bonus", args->new_word)->capture_default_str();
  cmd->add_option("--user-app-share", args->app_share)->capture_default_str();
  const auto app_option = [&](const char* name, AppType* app, const char* what) {
    cmd->add_option(name, *app, what)
        ->transform(CLI::CheckedTransformer(AppTypeNames(), CLI::ignore_case))
        ->default_str("chat");
  };
  app_option("--history-app", &args->history_app, "The app type --history is typed in");
  cmd->add_option("--also-history", args->also_history,
                  "More of the person's text, learned after --history");
  app_option("--also-history-app", &args->also_history_app,
             "The app type --also-history is typed in");
  app_option("--test-app", &args->test_app, "The app type --test is typed in");
  cmd->add_option("--pinyin-user-word-weight", args->pinyin_word_weight)->capture_default_str();
  cmd->add_option("--pinyin-user-pair-weight", args->pinyin_pair_weight)->capture_default_str();
  cmd->add_option("--max-lines", args->max_lines,
                  "--lang zh: only the first N lines of each file (0 = all)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--finetune", args->finetune,
                "Also one fine-tuning round after the history, and the evaluations after it "
                "(English: ksr_after_finetune, general_ksr_after_finetune; Chinese: "
                "sentence_top1_after_finetune, general_sentence_top1_after_finetune)");
  cmd->add_option("--fine-tune-weight", args->fine_tune_weight,
                  "With --finetune: how much the adapter counts (EngineOptions::fine_tune_weight, "
                  "pinyin.fine_tune_weight; default: the engine's)");
  cmd->callback([args] {
    const PersonalEvalApps apps = {args->history_app, args->also_history_app, args->test_app};
    PackTraits traits;
    CheckOrDie(LanguageTraits(args->engine.language, &traits), "personal eval");
    if (traits.converts_reading) {  // evaluated on reading files (pinyin), not by replay
      EngineOptions options = args->engine.Options();
      if (args->fine_tune_weight) options.pinyin.fine_tune_weight = *args->fine_tune_weight;
      options.pinyin.user_word_weight = args->pinyin_word_weight;
      options.pinyin.user_pair_weight = args->pinyin_pair_weight;
      options.user_app_share = args->app_share;
      auto lines = [&](const std::string& path) {
        std::vector<PinyinEvalLine> out;
        if (path.empty()) return out;
        CheckOrDie(ParsePinyinEval(ReadOrDie(path), &out), path);
        if (args->max_lines > 0 && out.size() > args->max_lines) out.resize(args->max_lines);
        return out;
      };
      PersonalPinyinResult r;
      CheckOrDie(EvalPersonalPinyin(options, lines(args->history), lines(args->also_history),
                                    lines(args->test), lines(args->general), EvalStorePath(),
                                    args->suggestions, &r, args->finetune, apps),
                 "personal eval");
      auto figures = [](const PinyinEvalResult& e) {
        return nlohmann::json{{"top1", e.sentence_top1()},
                              {"top5", e.sentence_top5()},
                              {"chars", e.char_accuracy()},
                              {"lines", e.lines}};
      };
      auto next_words = [](const NextWordResult& n) {
        return nlohmann::json{{"top1", n.top1_rate()}, {"top5", n.top5_rate()}, {"items", n.items}};
      };
      nlohmann::json out = {{"sentence_top1_before", r.before.sentence_top1()},
                            {"sentence_top1_after", r.after.sentence_top1()},
                            {"before", figures(r.before)},
                            {"after", figures(r.after)},
                            {"learned_words", r.learned_words},
                            {"next_word_before", next_words(r.next_before)},
                            {"next_word_after", next_words(r.next_after)},
                            {"history_lines", lines(args->history).size()},
                            {"history_picks", r.history_picks},
                            {"history_typed", r.history_typed},
                            {"pinyin_user_word_weight", args->pinyin_word_weight},
                            {"pinyin_user_pair_weight", args->pinyin_pair_weight},
                            {"user_app_share", args->app_share},
                            {"suggestions", args->suggestions},
                            {"keystroke_us_before",
                             {{"p50", Quantile(r.before.keystroke_us, 0.5)},
                              {"p95", Quantile(r.before.keystroke_us, 0.95)}}},
                            {"keystroke_us_after",
                             {{"p50", Quantile(r.after.keystroke_us, 0.5)},
                              {"p95", Quantile(r.after.keystroke_us, 0.95)}}}};
      if (r.has_general) {
        out["general_sentence_top1_before"] = r.general_before.sentence_top1();
        out["general_sentence_top1_after"] = r.general_after.sentence_top1();
        out["general_before"] = figures(r.general_before);
        out["general_after"] = figures(r.general_after);
      }
      if (r.finetuned) {
        out["sentence_top1_after_finetune"] = r.after_finetune.sentence_top1();
        out["after_finetune"] = figures(r.after_finetune);
        out["next_word_after_finetune"] = next_words(r.next_after_finetune);
        out["keystroke_us_after_finetune"] = {
            {"p50", Quantile(r.after_finetune.keystroke_us, 0.5)},
            {"p95", Quantile(r.after_finetune.keystroke_us, 0.95)}};
        out["finetune"] = r.finetune_summary;
        out["finetune_seconds"] = r.finetune_seconds;
        out["fine_tune_weight"] = options.pinyin.fine_tune_weight;
        if (r.has_general) {
          out["general_sentence_top1_after_finetune"] = r.general_after_finetune.sentence_top1();
        }
      }
      if (args->json) {
        std::cout << out.dump(2) << "\n";
        return;
      }
      std::printf("sentence top-1 %.4f -> %.4f", r.before.sentence_top1(), r.after.sentence_top1());
      if (r.has_general) {
        std::printf(", general %.4f -> %.4f", r.general_before.sentence_top1(),
                    r.general_after.sentence_top1());
      }
      std::printf("; 联想 top-5 %.4f -> %.4f (%zu words learned)\n", r.next_before.top5_rate(),
                  r.next_after.top5_rate(), r.learned_words);
      if (r.finetuned) {
        std::printf("after fine-tuning: sentence top-1 %.4f", r.after_finetune.sentence_top1());
        if (r.has_general) {
          std::printf(", general %.4f", r.general_after_finetune.sentence_top1());
        }
        std::printf(" (%s)\n", r.finetune_summary.c_str());
      }
      return;
    }
    const std::string history = ReadOrDie(args->history);
    const std::string also_history =
        args->also_history.empty() ? "" : ReadOrDie(args->also_history);
    std::string test = ReadOrDie(args->test);
    std::string general = args->general.empty() ? "" : ReadOrDie(args->general);
    KeepLeadingBytes(&test, args->max_chars);
    KeepLeadingBytes(&general, args->max_chars);
    EngineOptions options = args->engine.Options();
    options.user_word_weight = args->word_weight;
    options.user_pair_weight = args->pair_weight;
    options.user_new_word_bonus = args->new_word;
    options.user_app_share = args->app_share;
    if (args->fine_tune_weight) options.fine_tune_weight = *args->fine_tune_weight;
    const std::string store = EvalStorePath();
    ReplayOptions replay;
    replay.suggestions = args->suggestions;
    replay.progress = false;
    PersonalEvalResult r;
    CheckOrDie(EvalPersonal(options, history, also_history, test, general, store, replay, &r,
                            args->finetune, apps),
               "personal eval");
    nlohmann::json out = {
        {"ksr_before", r.before.ksr()},
        {"ksr_after", r.after.ksr()},
        {"next_word_top3_before", r.before.next_word_top3_rate()},
        {"next_word_top3_after", r.after.next_word_top3_rate()},
        {"history_bytes", history.size()},
        {"test_characters", r.before.characters},
        {"learned_words", r.learned_words},
        {"user_word_weight", args->word_weight},
        {"user_pair_weight", args->pair_weight},
        {"user_new_word_bonus", args->new_word},
        {"user_app_share", args->app_share},
        {"suggestions", args->suggestions},
        // Per decision on the test text: the store's words cost this much.
        {"latency_us_before",
         {{"p50", r.before.LatencyQuantile(0.5)}, {"p95", r.before.LatencyQuantile(0.95)}}},
        {"latency_us_after",
         {{"p50", r.after.LatencyQuantile(0.5)}, {"p95", r.after.LatencyQuantile(0.95)}}}};
    if (r.has_general) {
      out["general_ksr_before"] = r.general_before.ksr();
      out["general_ksr_after"] = r.general_after.ksr();
      out["general_characters"] = r.general_before.characters;
    }
    if (r.finetuned) {
      out["ksr_after_finetune"] = r.after_finetune.ksr();
      out["next_word_top3_after_finetune"] = r.after_finetune.next_word_top3_rate();
      out["latency_us_after_finetune"] = {{"p50", r.after_finetune.LatencyQuantile(0.5)},
                                          {"p95", r.after_finetune.LatencyQuantile(0.95)}};
      out["finetune"] = r.finetune_summary;
      out["finetune_seconds"] = r.finetune_seconds;
      if (r.has_general) out["general_ksr_after_finetune"] = r.general_after_finetune.ksr();
    }
    if (args->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    std::printf("ksr %.4f -> %.4f", r.before.ksr(), r.after.ksr());
    if (r.has_general) {
      std::printf(", general %.4f -> %.4f", r.general_before.ksr(), r.general_after.ksr());
    }
    std::printf(" (%zu words learned)\n", r.learned_words);
    if (r.finetuned) {
      std::printf("after fine-tuning: ksr %.4f", r.after_finetune.ksr());
      if (r.has_general) std::printf(", general %.4f", r.general_after_finetune.ksr());
      std::printf(" (%s)\n", r.finetune_summary.c_str());
    }
  });
}

}  // namespace keydecide
