// DocumentSession: the engine's session for one open document, kept in step with its text.
//
// The document is the context: before each completion the session is brought to the text
// before the cursor. What the person typed since the last completion, contiguously at the
// cursor, is typed into the session (Session::Type); anything else (a paste, an undo, a jump,
// a first completion in this document) replaces the session's context (Session::SetContext).
// The engine learns only words typed into a session, never words of SetContext's text, so
// this is also the learning rule (docs/INTEGRATION.md, "Language server"):
//   - a word is learned when the person typed it whole in this editing session, in small
//     insertions at the cursor (each at most kMaxTypedInsertBytes), or took it from a
//     completion this server offered (detected when an edit turns the word being typed into
//     one of the offered texts: Session::Pick when its letters were typed here, else the text
//     before the word as context and Session::Accept of the word, since the engine never
//     learns a word that began in context);
//   - text opened from disk, pasted, or changed by a formatter or an undo is context only.
//
// Thread-safety: none; one per document, used by the server's thread.

#ifndef KEYDECIDE_FRONTENDS_LS_DOCUMENT_SESSION_H_
#define KEYDECIDE_FRONTENDS_LS_DOCUMENT_SESSION_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "document.h"
#include "keydecide/decision.h"
#include "keydecide/status.h"

namespace keydecide {
class Session;
}

namespace keydecide::ls {

class DocumentSession {
 public:
  // An insertion longer than this is not typing (a paste, a snippet, a formatter).
  static constexpr size_t kMaxTypedInsertBytes = 32;
  // Text before the cursor handed to the session at most (the session keeps about 4 KB).
  static constexpr size_t kContextBytes = 2048;

  // Whether the character `ch` typed after `word` continues it (keydecide::ExtendsWord with the
  // pack's WordRule), for a pack whose composition is only what was typed into the session
  // (PackTraits::word.reopens false: pinyin): the letters at the end of a context are then typed
  // after it, so that they are a composition the engine converts. Null for a pack that finds
  // the word in SetContext's text itself (English).
  using WordContinues = std::function<bool(std::string_view word, std::string_view ch)>;
  // The longest composition typed after a context for such a pack.
  static constexpr size_t kMaxReopenBytes = 128;

  explicit DocumentSession(std::unique_ptr<Session> session, WordContinues word_continues = {});
  ~DocumentSession();

  // The document is new and empty: what is typed into it from now on is the person's.
  void StartEmpty() { synced_begin_ = synced_end_ = context_end_ = 0; }

  // The document's text changed by `edit`; `text` is the text after it.
  void OnEdit(const AppliedEdit& edit, std::string_view text);

  // Brings the session to text[region_begin, cursor) (the tail of at most kContextBytes) and
  // fills *out with up to `max_items` candidates. REQUIRES: region_begin <= cursor <=
  // text.size(), both at character starts. On failure returns the session's status; the next
  // call starts from SetContext.
  Status Complete(std::string_view text, size_t region_begin, size_t cursor, int max_items,
                  Decision* out);

  // Byte offset where the last completion's word started (its items replace from there).
  size_t word_begin() const { return offer_begin_; }
  // How many completions were served by typing the new text rather than by SetContext, and
  // how many offered candidates were picked (for tests).
  uint64_t typed_syncs() const { return typed_syncs_; }
  uint64_t picks() const { return picks_; }

 private:
  void Invalidate();
  // SetContext with the tail of text[region_begin, end).
  Status SetContext(std::string_view text, size_t region_begin, size_t end);
  // The person took the offered candidate (`text`, `id`); the word ends at `word_end`.
  void Take(std::string_view text, const std::string& candidate, uint32_t id, size_t word_end);

  // The start of the word that ends text[begin, end), by word_continues_ (end when none).
  size_t WordStart(std::string_view text, size_t begin, size_t end) const;

  std::unique_ptr<Session> session_;
  WordContinues word_continues_;
  static constexpr size_t kNone = static_cast<size_t>(-1);
  size_t synced_begin_ = kNone;  // region_begin of the last sync
  size_t synced_end_ = kNone;    // the cursor at the last sync; the session holds text up to it
  std::string typed_;            // typed contiguously at synced_end_ since
  size_t context_end_ = kNone;   // where the last SetContext's text ended: typed text after it
  // The last completion's offer: the word [offer_begin_, offer_end_) and the candidates.
  size_t offer_begin_ = 0;
  size_t offer_end_ = kNone;
  std::vector<std::pair<std::string, uint32_t>> offered_;
  uint64_t typed_syncs_ = 0;
  uint64_t picks_ = 0;
};

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_DOCUMENT_SESSION_H_
