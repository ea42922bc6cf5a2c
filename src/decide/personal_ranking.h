// PersonalRanking: what a session ranks and learns with from the person's store (src/personal),
// the same for every pack: the newest snapshot of their words (fetched only when the learner
// published one: most keystrokes cost one atomic load, none a SQLite call), the fine-tuner's
// newest adapter, the words held back until kept (PendingWords), and P_user, the person's share
// of a word (UserShare). What a pack does with them (a score adjuster's bonus, the pinyin
// search's) is its own.

#ifndef KEYDECIDE_DECIDE_PERSONAL_RANKING_H_
#define KEYDECIDE_DECIDE_PERSONAL_RANKING_H_

#include <cstdint>
#include <memory>

#include "decide/pending_words.h"
#include "personal/user_words.h"

namespace keydecide {

class FineTuner;
class Learner;
struct LogitAdapter;

// P_user(w) in a session of one app type: (1 − app_share) × the word's share of all the
// person's words + app_share × its share of what they wrote in that app type (when they wrote
// anything there; EngineOptions::user_app_share).
struct UserShare {
  UserShare() = default;
  // `min_total`: the person's total weight counts as at least this.
  UserShare(const UserWords& words, int app, float app_share, float min_total);
  float operator()(const UserWords::Word& w) const {
    return (1 - app_share) * w.weight * inv_total + app_share * w.app_weight[app] * inv_app_total;
  }
  float inv_total = 0, inv_app_total = 0, app_share = 0;
  int app = 0;  // a valid index even when app_share is 0
};

class PersonalRanking {
 public:
  // What a pack's session does when the person's data changes under it.
  class Listener {
   public:
    virtual ~Listener() = default;
    virtual void OnWordsChanged() {}    // a new snapshot: caches built from the old one go
    virtual void OnAdapterChanged() {}  // a new adapter
    virtual void OnForget() {}          // a forget reached the learner: the text's caches go
  };
  struct Options {
    Learner* learner = nullptr;  // null: nothing to rank or learn with
    bool learn = false;          // this session may teach the learner
    const FineTuner* tuner = nullptr;
    int app = 0;  // the session's AppType, as the learner counts it
    // Offer words under the epoch they were typed in and drop what a forget reached (the
    // learner's forget_epoch); else every word is offered under Learner::kAnyEpoch.
    bool track_forgets = false;
    size_t reserved_pending = 1, max_pending = 1;  // PendingWords'
  };

  // REQUIRES: the learner, the tuner and the listener (may be null) outlive this object.
  PersonalRanking(const Options& options, Listener* listener);

  // Once per keystroke, before the candidates: catches up with a forget (track_forgets), then
  // takes the learner's newer snapshot and the tuner's newer adapter, if any, telling the
  // listener.
  void Refresh();
  // Catches up with a forget: drops the held words and tells the listener.
  void CatchUpForget();

  Learner* learner() const { return options_.learner; }
  bool learn() const { return options_.learn; }
  int app() const { return options_.app; }
  // The snapshot the keystroke ranks with; null before the first Refresh or without a learner.
  const std::shared_ptr<const UserWords>& words() const { return words_; }
  const LogitAdapter* adapter() const { return adapter_.get(); }
  uint64_t forget_epoch() const { return forget_epoch_; }

  PendingWords& pending() { return pending_; }
  // Offers the held words to the learner (learn() only), after catching up with a forget.
  void OfferPending();

 private:
  Options options_;
  Listener* listener_;
  std::shared_ptr<const UserWords> words_;
  uint64_t words_version_ = 0;  // the learner's version words_ was fetched at
  std::shared_ptr<const LogitAdapter> adapter_;
  uint64_t adapter_version_ = 0;
  uint64_t forget_epoch_ = 0;  // the learner's forget epoch the held words belong to
  PendingWords pending_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PERSONAL_RANKING_H_
