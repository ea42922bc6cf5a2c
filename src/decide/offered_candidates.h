// OfferedCandidates: what a session's last Decide offered, so that Session::Pick can name a
// candidate by its id (Candidate::id) and the pack knows where it came from without matching its
// text again. Ids increase within a session and are never 0 (after 2^32 - 1 they start again at
// 1); any edit makes them stale (Forget).
//
// During Decide, a pack's writer stage marks each candidate it writes with Tag(origin), in
// Candidate::id. Later stages may drop, move or add candidates (ShortcutWriter puts its expansion
// first); so after the pipeline, Seal numbers the candidates as they finally stand and keeps each
// one's text and origin. A candidate no writer of this Decide tagged (an added one, or a slot
// reused from an older Decision) gets Origin{}: the pack resolves it by its text, as Accept does.
// The storage is reserved at construction and reused: once warm, Decide does not allocate.
// Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_OFFERED_CANDIDATES_H_
#define KEYDECIDE_DECIDE_OFFERED_CANDIDATES_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "decide/text_limits.h"
#include "keydecide/decision.h"
#include "keydecide/status.h"

namespace keydecide {

// The origin of a pack whose Pick is Accept of the offered text (word_session.h).
struct NoOrigin {};

// What Pick answers for an id that is not (or no longer) offered.
Status StaleCandidateId(uint32_t id);

// Origin: the pack's own record of where a candidate came from (an empty struct when the pack
// needs none); default-constructed means "unknown: resolve by text".
template <typename Origin>
class OfferedCandidates {
 public:
  OfferedCandidates() {
    if constexpr (!std::is_empty_v<Origin>) tags_.reserve(kMaxTags);
    offered_.reserve(kMaxCandidatesLimit);
    text_.reserve(kTextReserve);
  }

  // Starts a Decide: tags from now on are this Decide's.
  void Begin() {
    tags_.clear();
    // Room for this Decide's tags and ids before the wrap.
    if (next_ > std::numeric_limits<uint32_t>::max() - 2 * kMaxTags) next_ = 1;
  }

  // The value a writer stores in Candidate::id for a candidate from `origin`; 0 (unknown) once
  // this Decide tagged kMaxTags candidates (a rescored pass writes them all again).
  uint32_t Tag(const Origin& origin) {
    if (tags_.size() == kMaxTags) return 0;
    tags_.push_back(origin);
    return next_ + static_cast<uint32_t>(tags_.size() - 1);
  }

  // After the pipeline: gives each of `candidates` its id, in order, and keeps its text and
  // origin. The ids of the Decide before are stale from now on.
  void Seal(std::vector<Candidate>* candidates) {
    offered_.clear();
    text_.clear();
    for (Candidate& c : *candidates) {
      // Unsigned: an id below next_ (an older Decide's) becomes huge and matches no tag.
      const uint32_t tag = c.id - next_;
      const Origin origin = c.id != 0 && tag < tags_.size() ? tags_[tag] : Origin{};
      c.id = next_ + static_cast<uint32_t>(offered_.size());
      offered_.push_back(
          {origin, static_cast<uint32_t>(text_.size()), static_cast<uint32_t>(c.text.size())});
      text_.append(c.text);
    }
    first_ = next_;
    next_ += static_cast<uint32_t>(offered_.size());
  }

  // An edit: no id is offered any more. The texts stay readable until the next Seal, so that a
  // Pick may forget before it uses the text it found.
  void Forget() { offered_.clear(); }

  // The text and origin of the candidate offered as `id`; false when `id` is stale.
  bool Find(uint32_t id, std::string_view* text, Origin* origin) const {
    const uint32_t i = id - first_;
    if (id == 0 || i >= offered_.size()) return false;
    const Offered& o = offered_[i];
    *text = std::string_view(text_).substr(o.text_begin, o.text_size);
    *origin = o.origin;
    return true;
  }

 private:
  static constexpr size_t kMaxTags = 2 * kMaxCandidatesLimit;
  static constexpr size_t kTextReserve = 1024;  // grows, once, for longer offers

  struct Offered {
    Origin origin;
    uint32_t text_begin, text_size;  // in text_
  };
  std::vector<Origin> tags_;  // this Decide's, by tag - next_
  std::vector<Offered> offered_;
  std::string text_;    // the offered texts, one after another
  uint32_t first_ = 1;  // the id of offered_[0]
  uint32_t next_ = 1;   // the next Decide's first id
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_OFFERED_CANDIDATES_H_
