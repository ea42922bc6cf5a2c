#include "decide/personal_ranking.h"

#include <algorithm>

#include "decide/fine_tuner.h"
#include "personal/learner.h"

namespace keydecide {

UserShare::UserShare(const UserWords& words, int app_type, float share, float min_total) {
  inv_total = 1.0f / std::max(words.total_weight(), min_total);
  const float app_total = words.app_total_weight(app_type);
  app = app_total > 0 ? app_type : 0;
  app_share = app_total > 0 ? share : 0.0f;
  inv_app_total = app_total > 0 ? 1.0f / app_total : 0.0f;
}

PersonalRanking::PersonalRanking(const Options& options, Listener* listener)
    : options_(options),
      listener_(listener),
      pending_(options.reserved_pending, options.max_pending) {
  if (options_.learner != nullptr) forget_epoch_ = options_.learner->forget_epoch();
}

void PersonalRanking::Refresh() {
  if (options_.learner == nullptr) return;
  if (options_.track_forgets) CatchUpForget();
  if (const uint64_t version = options_.learner->version(); version != words_version_) {
    words_ = options_.learner->words();
    words_version_ = version;
    if (listener_ != nullptr) listener_->OnWordsChanged();
  }
  if (options_.tuner == nullptr) return;
  if (const uint64_t version = options_.tuner->version(); version != adapter_version_) {
    adapter_ = options_.tuner->adapter();
    adapter_version_ = version;
    if (listener_ != nullptr) listener_->OnAdapterChanged();
  }
}

void PersonalRanking::CatchUpForget() {
  if (options_.learner == nullptr) return;
  const uint64_t epoch = options_.learner->forget_epoch();
  if (epoch == forget_epoch_) return;
  forget_epoch_ = epoch;
  pending_.Clear();
  if (listener_ != nullptr) listener_->OnForget();
}

void PersonalRanking::OfferPending() {
  if (!options_.learn) return;
  if (options_.track_forgets) CatchUpForget();
  pending_.OfferTo(options_.learner, options_.app,
                   options_.track_forgets ? forget_epoch_ : Learner::kAnyEpoch);
}

}  // namespace keydecide
