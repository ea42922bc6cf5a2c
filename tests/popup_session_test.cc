// The popup network in the English engine: the bundled pack's file loads (only for the pack's
// own model), a broken one is refused at Open, and its estimate depends on the letters and
// the context, not on what the engine offered before.

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "keydecide/engine.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::unique_ptr<Engine> OpenShipped(const std::string& popup_net_path = "",
                                    const std::string& model_path = "") {
  EngineOptions options;
  options.popup_net_path = popup_net_path;
  options.model_path = model_path;
  return testing::OpenBundled(options);
}

float PopupAt(Engine& engine, const char* before, const char* keys) {
  auto session = engine.NewSession({});
  Decision d;
  EXPECT_TRUE(session->Type(before).ok());
  if (*before != '\0') {
    EXPECT_TRUE(session->Decide(3, &d).ok());
  }
  EXPECT_TRUE(session->Type(keys).ok());
  EXPECT_TRUE(session->Decide(3, &d).ok());
  EXPECT_TRUE(d.has_model);
  return d.popup.probability;
}

TEST(PopupSessionTest, TheBundledPackLoadsItsNetworkForItsOwnModelOnly) {
  auto engine = OpenShipped();
  ASSERT_NE(engine, nullptr);
  EXPECT_NE(engine->info().popup_net_path.find("en/popup.json"), std::string::npos);
  auto mixed = OpenShipped("none");
  ASSERT_NE(mixed, nullptr);
  EXPECT_TRUE(mixed->info().popup_net_path.empty());
  // A model chosen by path (here the pack's own fp16 file) gets no network fitted to another.
  auto other = OpenShipped("", std::string(KD_MODELS_DIR) + "/en/model.safetensors");
  ASSERT_NE(other, nullptr);
  EXPECT_TRUE(other->info().popup_net_path.empty());
  // The network's estimate is not the mix's.
  const float net = PopupAt(*engine, "", "see you tomo");
  const float mix = PopupAt(*mixed, "", "see you tomo");
  EXPECT_GT(net, 0.0f);
  EXPECT_LT(net, 1.0f);
  EXPECT_NE(net, mix);
}

TEST(PopupSessionTest, ABrokenNetworkFileIsRefusedAtOpen) {
  const std::string path = testing::TempPath("popup_session_test.json");
  testing::WriteFile(path, R"({"format": "keydecide-popup", "version": 1, "features": ["x"]})");
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.popup_net_path = path;
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(options, &engine);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find(path), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("features"), std::string::npos) << s.ToString();
  std::remove(path.c_str());
}

TEST(PopupSessionTest, AnEarlierDecisionDoesNotChangeTheEstimate) {
  // A person who typed on past the bar may not have looked at it: the estimate at the same
  // letters is the same whether the engine decided at the letter before or not.
  auto engine = OpenShipped();
  ASSERT_NE(engine, nullptr);
  for (const auto& [before, keys] : {std::pair{"I will q", "u"}, std::pair{"see you tom", "o"},
                                     std::pair{"the weather is b", "e"}}) {
    const std::string all = std::string(before) + keys;
    EXPECT_FLOAT_EQ(PopupAt(*engine, before, keys), PopupAt(*engine, "", all.c_str())) << all;
  }
}

}  // namespace
}  // namespace keydecide
