// PopupNet: a small two-layer network that turns the popup features of a decision (the popup
// head, the candidates' scores, what the person already typed past) into the probability that
// showing the suggestion bar now saves keystrokes. It is fitted after the typing model, on
// replays of allowed tuning text (training/keydecide_train/fit_popup.py), and stored as JSON
// beside the model (popup.json): a handful of weights, evaluated by plain scalar code.
//
// The file: {"format": "keydecide-popup", "version": 1, "features": [names], "mean": [F],
// "scale": [F], "hidden_weight": [H][F], "hidden_bias": [H], "output_weight": [H],
// "output_bias": x}; other keys are ignored. The features' names must be the engine's, in its
// order; every number within +-kMaxMagnitude, every scale >= kMinScale, 1 <= H <= kMaxHidden:
// bounds under which the probability of finite, moderate features (the engine's are clamped)
// cannot overflow.

#ifndef KEYDECIDE_MODEL_POPUP_NET_H_
#define KEYDECIDE_MODEL_POPUP_NET_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class PopupNet {
 public:
  static constexpr size_t kMaxHidden = 256;
  static constexpr size_t kMaxFileBytes = 1 << 20;
  static constexpr double kMaxMagnitude = 1e6;
  static constexpr double kMinScale = 1e-6;

  // Parses `json`. InvalidArgument, saying what is wrong, when it is not such a file or its
  // features are not `feature_names` in that order.
  static Status Parse(std::string_view json, std::span<const std::string_view> feature_names,
                      std::unique_ptr<PopupNet>* out);
  // Parse of the file at `path` (at most kMaxFileBytes); errors name the path.
  static Status Open(const std::string& path, std::span<const std::string_view> feature_names,
                     std::unique_ptr<PopupNet>* out);

  // sigmoid(w2 . relu(W1 ((x - mean) / scale) + b1) + b2), in (0, 1). REQUIRES: x holds one
  // value per feature. Does not allocate.
  float Probability(std::span<const float> x) const;

  size_t feature_count() const { return feature_count_; }
  size_t hidden_size() const { return hidden_bias_.size(); }

 private:
  PopupNet() = default;

  size_t feature_count_ = 0;
  std::vector<float> hidden_weight_;  // hidden_size() rows of feature_count(), scale folded in
  std::vector<float> hidden_bias_, output_weight_;
  float output_bias_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_POPUP_NET_H_
