// PendingWords: the words a session finished or committed and holds back from the learner until
// the person has kept them (the next word ends, the next commit, the session closes). Deleting
// back into one, or replacing the text, drops it, so that a word corrected right away is never
// learned. Shared by the packs (PersonalRanking owns one per session).

#ifndef KEYDECIDE_DECIDE_PENDING_WORDS_H_
#define KEYDECIDE_DECIDE_PENDING_WORDS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keydecide {

class Learner;

class PendingWords {
 public:
  static constexpr size_t kNoEnd = ~size_t{0};
  struct Word {
    std::string text, previous, reading;  // reading "" when none
    bool picked = false;
    size_t end = kNoEnd;  // where it ended in the session's text (kNoEnd: not tracked)
  };

  // Room for `reserved` words of Learner::kMaxWordBytes made at once (holding as many never
  // allocates), and at most `max` words (more are dropped).
  PendingWords(size_t reserved, size_t max);

  // Holds a word; false (and nothing held) when `max` are held already.
  bool Hold(std::string_view text, std::string_view previous, std::string_view reading, bool picked,
            size_t end = kNoEnd);
  // Offers every word held to `learner` (as typed in `app`, under forget epoch `epoch`), then
  // holds none. Not queued by a learner that is full or refuses the epoch: one word fewer
  // learned, never a wait on the keystroke path.
  void OfferTo(Learner* learner, int app, uint64_t epoch);
  void Clear() { size_ = 0; }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<Word> words() { return std::span(words_).first(size_); }

  // Drops the words whose end is past `size` (the text was cut back before it).
  void DropEndingAfter(size_t size);
  // The text lost its first `cut` bytes: the ends move back; a word that began in them goes.
  void ShiftEnds(size_t cut);

 private:
  std::vector<Word> words_;  // [0, size_) held; the rest spare, with their buffers
  size_t size_ = 0;
  size_t max_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PENDING_WORDS_H_
