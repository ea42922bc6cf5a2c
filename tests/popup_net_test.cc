// PopupNet: the probability of a small net against one worked by hand, and every way a file is
// refused (with a message that says what is wrong).

#include "model/popup_net.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>

#include "test_util.h"

namespace keydecide {
namespace {

constexpr std::array<std::string_view, 2> kNames = {"x", "y"};

std::string NetJson(std::string_view override_key = "", std::string_view value = "") {
  std::string fields[][2] = {{"format", R"("keydecide-popup")"},
                             {"version", "1"},
                             {"features", R"(["x", "y"])"},
                             {"mean", "[1, -2]"},
                             {"scale", "[2, 0.5]"},
                             {"hidden_weight", "[[1, 1], [-1, 2]]"},
                             {"hidden_bias", "[0.5, -4]"},
                             {"output_weight", "[2, -3]"},
                             {"output_bias", "-1"}};
  std::string json = "{";
  for (auto& [key, v] : fields) {
    if (key == override_key) v = std::string(value);
    if (v.empty()) continue;  // left out
    if (json.size() > 1) json += ", ";
    json += "\"" + key + "\": " + v;
  }
  return json + "}";
}

TEST(PopupNetTest, ProbabilityIsTheNetworkWorkedByHand) {
  std::unique_ptr<PopupNet> net;
  ASSERT_TRUE(PopupNet::Parse(NetJson(), kNames, &net).ok());
  EXPECT_EQ(net->feature_count(), 2u);
  EXPECT_EQ(net->hidden_size(), 2u);
  // x = (3, -1): standardised (1, 2); hidden 1 + 2 + 0.5 = 3.5, -1 + 4 - 4 = -1 -> relu 0;
  // logit 2 * 3.5 - 1 = 6.
  const std::array<float, 2> x = {3, -1};
  EXPECT_NEAR(net->Probability(x), 1 / (1 + std::exp(-6.0)), 1e-6);
  // x = (1, -2): standardised (0, 0); hidden 0.5 and 0; logit 2 * 0.5 - 1 = 0.
  const std::array<float, 2> mean = {1, -2};
  EXPECT_NEAR(net->Probability(mean), 0.5, 1e-6);
}

TEST(PopupNetTest, RefusesWhatIsNotSuchAFile) {
  const struct {
    std::string json;
    std::string says;
  } cases[] = {
      {"[1, 2]", "not a JSON object"},
      {"{\"format\": ", "not a JSON object"},
      {NetJson("format", R"("keydecide-model")"), "format"},
      {NetJson("version", "2"), "version"},
      {NetJson("features", R"(["y", "x"])"), "feature 0 is not 'x'"},
      {NetJson("features", R"(["x"])"), "'features'"},
      {NetJson("mean", "[1]"), "'mean'"},
      {NetJson("mean", "[1, \"a\"]"), "'mean'"},
      {NetJson("scale", "[2, 0]"), "'scale'"},
      {NetJson("scale", "[2, 1e-9]"), "'scale'"},
      {NetJson("hidden_weight", "[[1, 1]]"), "'hidden_weight'"},
      {NetJson("hidden_weight", "[[1, 1], [1]]"), "hidden_weight"},
      {NetJson("hidden_weight", "[[1, 1], [1, 1e300]]"), "hidden_weight"},
      {NetJson("hidden_bias", "[]"), "'hidden_bias'"},
      {NetJson("output_weight", "[1, 2, 3]"), "'output_weight'"},
      {NetJson("output_bias", ""), "'output_bias'"},
      {NetJson("output_bias", "1e400"), ""},  // out of a double's range: refused either way
  };
  for (const auto& c : cases) {
    std::unique_ptr<PopupNet> net;
    const Status s = PopupNet::Parse(c.json, kNames, &net);
    EXPECT_FALSE(s.ok()) << c.json;
    EXPECT_EQ(net, nullptr);
    EXPECT_NE(s.ToString().find(c.says), std::string::npos) << s.ToString();
  }
  std::string wide = "[";
  for (size_t i = 0; i <= PopupNet::kMaxHidden; ++i) wide += i > 0 ? ", 0" : "0";
  std::unique_ptr<PopupNet> net;
  EXPECT_FALSE(PopupNet::Parse(NetJson("hidden_bias", wide + "]"), kNames, &net).ok());
}

TEST(PopupNetTest, OpenNamesTheFile) {
  const std::string path = testing::TempPath("popup_net_test.json");
  testing::WriteFile(path, NetJson("version", "7"));
  std::unique_ptr<PopupNet> net;
  const Status s = PopupNet::Open(path, kNames, &net);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find(path), std::string::npos) << s.ToString();
  testing::WriteFile(path, NetJson());
  EXPECT_TRUE(PopupNet::Open(path, kNames, &net).ok());
  EXPECT_EQ(PopupNet::Open(path + ".absent", kNames, &net).code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace keydecide
