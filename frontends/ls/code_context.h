// The code/comment rule: where in a document the server offers prose completions.
//
// A document whose language id is prose (markdown, plaintext, gitcommit, and a few more:
// IsProseLanguage) is prose everywhere. Any other language id is source code: prose is offered
// only inside its comments and string literals, found by a small scanner that knows the
// comment and string syntax of the common language families (C-like, '#'-comment languages,
// '--' languages, Lisp's ';', markup's '<!-- -->'). The scanner is a rule of thumb, not a
// parser: a raw string or a here-document may be misread, and then the worst outcome is a
// completion offered in code or missed in a comment.
//
// Thread-safety: plain functions of their arguments.

#ifndef KEYDECIDE_FRONTENDS_LS_CODE_CONTEXT_H_
#define KEYDECIDE_FRONTENDS_LS_CODE_CONTEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace keydecide::ls {

enum class TextKind { kProse, kCode, kComment, kString };

bool IsProseLanguage(std::string_view language_id);

struct TextRegion {
  TextKind kind = TextKind::kCode;
  size_t begin = 0;  // byte offset where the comment's or string's text starts (after its
                     // opening delimiter); 0 for prose and code
};

// Where a scan of a document stopped, so that the next one resumes there instead of reading
// the whole document again (only a speed-up: typing at the end of a long source file). The
// scanner's state at `pos` depends on the text before pos + kLookahead: an edit there makes
// the checkpoint stale (Reset it).
struct RegionScan {
  static constexpr size_t kLookahead = 4;  // the longest token, "<!--"
  size_t pos = 0;
  TextRegion region;
  std::string close;  // what ends the comment or string the scan is in
  void Reset() { *this = RegionScan(); }
};

// What the text is at byte `offset` of `text` (a document of `language_id`): the region the
// cursor is in, looking at text[0, offset) only. With `checkpoint` (may be null), resumes from
// it when it lies before `offset`, and leaves there the furthest state it can.
TextRegion RegionAt(std::string_view language_id, std::string_view text, size_t offset,
                    RegionScan* checkpoint = nullptr);

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_CODE_CONTEXT_H_
