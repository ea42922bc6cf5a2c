// keydecide type: the interactive demo. On a terminal it switches to raw mode and redraws
// the text, the top candidates and the stage timings on every key. With input from a pipe
// it types the input and prints one line per keystroke (scriptable, used by the tests).
//
// Keys (English): letters and punctuation type; Backspace deletes; Tab or 1/2/3 accepts a
// candidate (and adds a space); Enter starts a new line; Ctrl-C or Ctrl-D quits.
// Keys (--lang zh): letters compose pinyin, shown with its syllable breaks; Space takes the
// first candidate (the sentence), 1-5 pick one (a word commits its letters and the rest is
// converted again; after a commit they pick the 联想 words); Enter commits the letters as typed;
// Backspace edits the composition; with no composition, Space and digits type.
// With --personal the demo ranks with the person's store, learns what is typed into it (written
// when the demo ends, and every half second), and fires their shortcuts (English) when the
// word ends, as a front end does.

#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/text_util.h"

namespace keydecide {

namespace {

constexpr int kShown = 3;
constexpr int kShownPinyin = 5;

struct termios g_saved_termios;
bool g_raw = false;

// When a key was read, on a terminal: the model reads the person's pace (Session::Type).
// Keys from a pipe are untimed: they arrive all at once, at no person's pace.
std::optional<int64_t> NowMs() {
  if (!g_raw) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void RestoreTerminal() {
  if (g_raw) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved_termios);
    g_raw = false;
    std::fputs("\x1b[?25h\n", stdout);  // show the cursor again
    std::fflush(stdout);
  }
}

void OnSignal(int sig) {
  RestoreTerminal();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

bool EnterRawMode() {
  if (tcgetattr(STDIN_FILENO, &g_saved_termios) != 0) return false;
  struct termios raw = g_saved_termios;
  raw.c_lflag &= ~static_cast<tcflag_t>(ECHO | ICANON | ISIG | IEXTEN);
  raw.c_iflag &= ~static_cast<tcflag_t>(IXON | ICRNL);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) return false;
  g_raw = true;
  std::atexit(RestoreTerminal);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGHUP, OnSignal);
  return true;
}

// Length of the UTF-8 sequence a lead byte announces (1 for bytes that cannot lead one:
// the engine then refuses the invalid byte and the demo ignores it).
int SequenceLength(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 1;
}

std::string Tail(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return "…" + std::string(text.substr(BoundaryAtOrAfter(text, text.size() - max_bytes)));
}

void Redraw(const Session& session, const Decision& d, bool first) {
  std::string last_line(session.text());
  const size_t nl = last_line.rfind('\n');
  if (nl != std::string::npos) last_line.erase(0, nl + 1);
  // The composition is shown as its preedit (with syllable breaks for pinyin), underlined.
  last_line.resize(last_line.size() - session.composition().size());
  if (!first) std::fputs("\x1b[3A", stdout);  // back to the first of our three lines
  std::printf("\r\x1b[2K> %s\x1b[4m%s\x1b[0m\x1b[7m \x1b[0m\n", Tail(last_line, 70).c_str(),
              d.preedit.c_str());
  std::fputs("\r\x1b[2K ", stdout);
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    std::printf("  [%zu] %s", i + 1, d.candidates[i].text.c_str());
  }
  if (d.has_model) {
    std::printf("   popup %.2f %s", d.popup.probability, d.popup.show ? "show" : "hide");
    if (d.autocorrect.apply) std::printf("  autocorrect -> %s", d.autocorrect.replacement.c_str());
    std::printf("  intent %s", d.intent.label.c_str());
  }
  std::fputs("\n", stdout);
  const StageTimings& t = d.timings;
  std::printf(
      "\r\x1b[2K  features %.1fus  candidates %.1fus  model %.1fus  scoring %.1fus  post %.1fus"
      "  total %.1fus  tier %s\n",
      t.features_us, t.candidates_us, t.model_us, t.heads_us, t.post_us, t.total_us,
      TierName(d.tier));
  std::fflush(stdout);
}

void PrintScripted(std::string_view key, const Session& session, const Decision& d) {
  std::string shown(key == "\n" ? "\\n" : key == "\t" ? "\\t" : std::string(key));
  std::printf("key=%s composition=%s", shown.c_str(), std::string(session.composition()).c_str());
  if (d.preedit != d.composition) std::printf(" preedit=%s", d.preedit.c_str());
  std::printf(" candidates=");
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    std::printf("%s%s", i ? "," : "", d.candidates[i].text.c_str());
  }
  if (d.has_model) {
    std::printf(" popup=%.2f autocorrect=%s intent=%s", d.popup.probability,
                d.autocorrect.apply ? d.autocorrect.replacement.c_str() : "-",
                d.intent.label.c_str());
  }
  std::string text = Tail(session.text(), 60);  // the end of the text, a line break as \n
  for (size_t at = 0; (at = text.find('\n', at)) != std::string::npos; at += 2) {
    text.replace(at, 1, "\\n");
  }
  std::printf(" total_us=%.1f text=%s\n", d.timings.total_us, text.c_str());
}

// Applies one key in pinyin mode; false when it is not a pinyin key (it then types as usual).
bool HandlePinyinKey(unsigned char c, Session* session, const Decision& d) {
  const bool composing = !session->composition().empty();
  int pick = -1;
  if (c == ' ' && composing) pick = 0;
  if (c >= '1' && c <= '0' + kShownPinyin) pick = c - '1';
  if (pick >= 0 && static_cast<size_t>(pick) < d.candidates.size()) {
    CheckOrDie(session->Accept(d.candidates[pick].text), "accept");  // no space after hanzi
    return true;
  }
  if ((c == '\r' || c == '\n') && composing) {
    CheckOrDie(session->Accept(std::string(session->composition())), "accept");  // as typed
    return true;
  }
  return pick == 0;  // Space with nothing to take: swallowed while composing
}

// With --personal, as a front end does: the key that ends a word whose letters are one of the
// person's shortcuts puts the expansion in its place. The session then gets the text as it now
// stands (SetContext: neither the trigger nor the expansion is learned as typed). True when it
// fired.
bool FireShortcut(const std::string& key, const WordRule& rule, Session* session,
                  const Decision& d) {
  const std::string_view typed = session->composition();
  if (typed.empty() || !d.shortcut.fire || d.shortcut.expansion.empty() || d.composition != typed ||
      ExtendsWord(rule, typed, key)) {
    return false;
  }
  const std::string_view text = session->text();
  std::string now(text.substr(0, text.size() - typed.size()));
  now += d.shortcut.expansion;
  now += key == "\r" ? "\n" : key;
  CheckOrDie(session->SetContext(now), "shortcut");
  return true;
}

// Applies one key; returns false when the demo should end.
bool HandleKey(const std::string& key, const PackTraits& traits, Session* session,
               const Decision& d) {
  const bool pinyin = traits.converts_reading;
  const unsigned char c = static_cast<unsigned char>(key[0]);
  if (c == 0x03 || c == 0x04) return false;  // Ctrl-C, Ctrl-D
  if (pinyin && HandlePinyinKey(c, session, d)) return true;
  if (!pinyin && c != 0x7F && c != 0x08 && c != '\t' &&
      FireShortcut(key, traits.word, session, d)) {
    return true;
  }
  int pick = -1;
  if (c == '\t') pick = 0;
  if (!pinyin && c >= '1' && c <= '0' + kShown) pick = c - '1';
  if (pick >= 0) {
    if (static_cast<size_t>(pick) < d.candidates.size()) {
      CheckOrDie(session->Accept(d.candidates[pick].text), "accept");
      CheckOrDie(session->Type(" ", NowMs()), "type");
    }
    return true;
  }
  if (c == 0x7F || c == 0x08) {
    CheckOrDie(session->Backspace(), "backspace");
  } else if (c == '\r' || c == '\n') {
    CheckOrDie(session->Type("\n", NowMs()), "type");
  } else if (c >= 0x20 || c == 0x09) {
    const Status s = session->Type(key, NowMs());
    if (!s.ok()) return true;  // an invalid byte from the terminal: ignore it
  }
  return true;
}

}  // namespace

void AddTypeCommand(CLI::App* app) {
  auto flags = std::make_shared<EngineFlags>();
  auto* cmd = app->add_subcommand("type", "Interactive demo: type and watch the decisions");
  flags->AddTo(cmd);
  flags->AddPersonalTo(cmd);
  cmd->callback([flags] {
    auto engine = flags->OpenOrDie();
    auto session = engine->NewSession(SessionOptions());
    const PackTraits traits = engine->info().traits;
    const bool pinyin = traits.converts_reading;  // the pack says
    const int shown = pinyin ? kShownPinyin : kShown;
    Decision d;
    CheckOrDie(session->Decide(shown, &d), "decide");
    const bool interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && EnterRawMode();
    if (interactive) {
      if (pinyin) {
        std::printf(
            "keydecide demo (%s, %zu reading keys). Type its letters; Space takes the first, "
            "1-%d pick, Enter commits the letters, Ctrl-C quits.\n",
            engine->info().language.c_str(), engine->info().lexicon_words, shown);
      } else {
        std::printf("keydecide demo (%s, %zu words). Tab or 1-%d accepts, Ctrl-C quits.\n",
                    engine->info().language.c_str(), engine->info().lexicon_words, shown);
      }
      Redraw(*session, d, true);
    }
    std::string key;
    int ch;
    while ((ch = std::getchar()) != EOF) {
      key.assign(1, static_cast<char>(ch));
      if (ch == 0x1B) {  // escape sequence (arrows, ...): read and ignore "[X"
        if ((ch = std::getchar()) == '[') std::getchar();
        continue;
      }
      for (int i = 1; i < SequenceLength(static_cast<unsigned char>(key[0])); ++i) {
        if ((ch = std::getchar()) == EOF) break;
        key.push_back(static_cast<char>(ch));
      }
      if (!HandleKey(key, traits, session.get(), d)) break;
      CheckOrDie(session->Decide(shown, &d), "decide");
      if (interactive) {
        Redraw(*session, d, false);
      } else {
        PrintScripted(key, *session, d);
      }
    }
    RestoreTerminal();
    if (flags->personal) {  // what this run learned is in the store before the demo ends
      CheckOrDie(engine->FlushLearning(), "the person's store");
      std::fprintf(stderr, "keydecide: personal: %s\n", engine->info().personal.c_str());
    }
  });
}

}  // namespace keydecide
