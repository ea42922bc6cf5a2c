#include "code_context.h"

#include <algorithm>
#include <array>
#include <string>

namespace keydecide::ls {
namespace {

// The comment and string syntax of a family of languages.
struct Syntax {
  std::string_view line_comment;   // "" for none
  std::string_view line_comment2;  // a second form ("" for none)
  std::string_view block_open;     // "" for none
  std::string_view block_close;
  std::string_view quotes;     // characters that open (and close) a string
  bool triple_quotes = false;  // Python's """ and '''
};

constexpr Syntax kCLike{"//", "", "/*", "*/", "\"'`", false};
constexpr Syntax kHash{"#", "", "", "", "\"'", false};
constexpr Syntax kPython{"#", "", "", "", "\"'", true};
constexpr Syntax kDashes{"--", "", "", "", "\"'", false};
constexpr Syntax kLisp{";", "", "", "", "\"", false};
constexpr Syntax kMarkup{"", "", "<!--", "-->", "\"'", false};
constexpr Syntax kTex{"%", "", "", "", "", false};

constexpr std::array<std::string_view, 8> kProse = {
    "markdown",   "plaintext", "gitcommit",        "text",
    "git-commit", "rst",       "restructuredtext", "asciidoc"};

bool In(std::string_view id, std::initializer_list<std::string_view> ids) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

const Syntax& SyntaxOf(std::string_view id) {
  if (In(id, {"python"})) return kPython;
  if (In(id, {"shellscript", "sh",         "bash",   "zsh",  "fish",         "ruby",
              "perl",        "r",          "yaml",   "toml", "make",         "makefile",
              "cmake",       "dockerfile", "elixir", "nim",  "julia",        "tcl",
              "powershell",  "conf",       "ini",    "nix",  "coffeescript", "gitignore"})) {
    return kHash;
  }
  if (In(id, {"lua", "sql", "haskell", "elm", "ada", "vhdl", "purescript"})) return kDashes;
  if (In(id, {"lisp", "scheme", "clojure", "commonlisp", "racket", "elisp", "fennel"})) {
    return kLisp;
  }
  if (In(id, {"html", "xml", "svg", "vue", "xhtml"})) return kMarkup;
  if (In(id, {"tex", "latex", "bibtex", "matlab", "erlang"})) return kTex;
  return kCLike;  // C, C++, Java, JavaScript, Rust, Go, C#, Swift, Kotlin, CSS, ...
}

bool At(std::string_view text, size_t i, std::string_view token) {
  return !token.empty() && text.substr(i, token.size()) == token;
}

}  // namespace

bool IsProseLanguage(std::string_view language_id) {
  return std::find(kProse.begin(), kProse.end(), language_id) != kProse.end();
}

TextRegion RegionAt(std::string_view language_id, std::string_view text, size_t offset,
                    RegionScan* checkpoint) {
  if (IsProseLanguage(language_id)) return {TextKind::kProse, 0};
  const Syntax& syntax = SyntaxOf(language_id);
  text = text.substr(0, std::min(offset, text.size()));
  TextRegion region;
  std::string_view close;  // what ends the current comment or string
  size_t i = 0;
  if (checkpoint != nullptr && checkpoint->pos <= text.size()) {
    i = checkpoint->pos;
    region = checkpoint->region;
    close = checkpoint->close;
  }
  RegionScan saved;  // the last state that the text beyond `offset` cannot change
  saved.pos = i;
  saved.region = region;
  std::string_view saved_close = close;
  while (i < text.size()) {
    if (i + RegionScan::kLookahead <= text.size()) {
      saved.pos = i;
      saved.region = region;
      saved_close = close;
    }
    if (region.kind == TextKind::kCode) {
      const std::string_view line_open = At(text, i, syntax.line_comment)    ? syntax.line_comment
                                         : At(text, i, syntax.line_comment2) ? syntax.line_comment2
                                                                             : std::string_view();
      if (!line_open.empty()) {
        region = {TextKind::kComment, i + line_open.size()};
        close = "\n";
      } else if (At(text, i, syntax.block_open)) {
        region = {TextKind::kComment, i + syntax.block_open.size()};
        close = syntax.block_close;
      } else if (syntax.quotes.find(text[i]) != std::string_view::npos) {
        const bool triple = syntax.triple_quotes && text.substr(i, 3) == std::string(3, text[i]);
        close = text.substr(i, triple ? 3 : 1);
        region = {TextKind::kString, i + close.size()};
      } else {
        ++i;
        continue;
      }
      i = region.begin;
      continue;
    }
    if (region.kind == TextKind::kString && text[i] == '\\') {  // an escape: skip what it escapes
      i += 2;
      continue;
    }
    if (region.kind == TextKind::kString && close.size() == 1 && close != "`" &&
        text[i] == '\n') {  // a one-line string the line ended without closing
      region = {TextKind::kCode, 0};
      ++i;
      continue;
    }
    if (At(text, i, close)) {
      i += close.size();
      region = {TextKind::kCode, 0};
      continue;
    }
    ++i;
  }
  if (checkpoint != nullptr) {
    saved.close.assign(saved_close);  // a copy: `close` may point into the text
    *checkpoint = std::move(saved);
  }
  return region;
}

}  // namespace keydecide::ls
