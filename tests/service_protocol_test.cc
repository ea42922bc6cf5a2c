// The protocol parser and writers, without sockets.

#include "service/protocol.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "keydecide/decision.h"
#include "keydecide/user_store.h"

namespace keydecide::service {
namespace {

TEST(ProtocolTest, ParsesEveryOp) {
  ProtocolRequest r;
  ProtocolError e;
  ASSERT_TRUE(ParseRequest(R"({"id":"a","op":"hello"})", &r, &e));
  EXPECT_EQ(r.op, Op::kHello);
  EXPECT_EQ(r.id, "\"a\"");
  ASSERT_TRUE(ParseRequest(
      R"({"op":"open_session","app":"code","lang":"en","auto_capitalize":false})", &r, &e));
  EXPECT_EQ(r.app, AppType::kCode);
  EXPECT_FALSE(r.auto_capitalize);
  EXPECT_EQ(r.id, "");
  ASSERT_TRUE(ParseRequest(R"({"op":"key","session":2,"text":"a","t_ms":12345})", &r, &e));
  EXPECT_EQ(r.t_ms, 12345);
  ASSERT_TRUE(ParseRequest(R"({"id":3,"op":"key","session":2,"text":"é","k":5})", &r, &e));
  EXPECT_FALSE(r.t_ms.has_value());  // untimed
  EXPECT_EQ(r.op, Op::kKey);
  EXPECT_EQ(r.session, 2u);
  EXPECT_EQ(r.text, "\xC3\xA9");
  EXPECT_EQ(r.k, 5);
  EXPECT_EQ(r.id, "3");
  ASSERT_TRUE(ParseRequest(R"({"op":"backspace","session":2,"count":3,"decide":false})", &r, &e));
  EXPECT_EQ(r.count, 3);
  EXPECT_FALSE(r.decide);
  ASSERT_TRUE(ParseRequest(R"({"op":"commit","session":2,"word":"dog"})", &r, &e));
  EXPECT_EQ(r.text, "dog");
  ASSERT_TRUE(ParseRequest(R"({"op":"set_context","session":2,"text":""})", &r, &e));
  ASSERT_TRUE(ParseRequest(R"({"op":"decide","session":2})", &r, &e));
  ASSERT_TRUE(ParseRequest(R"({"op":"close_session","session":2})", &r, &e));
  ASSERT_TRUE(ParseRequest(R"({"op":"stats"})", &r, &e));
}

TEST(ProtocolTest, OpenSessionLanguage) {
  ProtocolRequest r;
  ProtocolError e;
  ASSERT_TRUE(ParseRequest(R"({"op":"open_session"})", &r, &e));
  EXPECT_EQ(r.lang, "");  // the daemon's default language
  ASSERT_TRUE(ParseRequest(R"({"op":"open_session","lang":"zh"})", &r, &e));
  EXPECT_EQ(r.lang, "zh");
  ASSERT_TRUE(ParseRequest(R"({"op":"open_session","lang":"xx"})", &r, &e));
  EXPECT_EQ(r.lang, "xx");  // whether it is served is the server's to say (not_supported)
  for (const char* bad :
       {R"({"op":"open_session","lang":5})", R"({"op":"open_session","lang":null})",
        R"({"op":"open_session","lang":["zh"]})", R"({"op":"open_session","lang":{"name":"zh"}})",
        R"({"id":9,"op":"open_session","lang":""})"}) {
    EXPECT_FALSE(ParseRequest(bad, &r, &e)) << bad;
    EXPECT_STREQ(e.code, errors::kBadRequest) << bad;
    EXPECT_NE(e.message.find("lang"), std::string::npos) << bad;
  }
  EXPECT_EQ(r.id, "9");
}

// Every app type by its name (AppTypeName, as the export and the C ABI's remote sessions write
// it); a name that is not one is refused.
TEST(ProtocolTest, OpenSessionAppType) {
  ProtocolRequest r;
  ProtocolError e;
  for (int i = 0; i < UserStore::kAppTypes; ++i) {
    const AppType app = static_cast<AppType>(i);
    ASSERT_TRUE(ParseRequest(
        std::string(R"({"op":"open_session","app":")") + AppTypeName(app) + "\"}", &r, &e));
    EXPECT_EQ(r.app, app);
    AppType parsed;
    ASSERT_TRUE(ParseAppType(AppTypeName(app), &parsed).ok());
    EXPECT_EQ(parsed, app);
  }
  for (const char* bad :
       {R"({"op":"open_session","app":"Chat"})", R"({"op":"open_session","app":""})",
        R"({"op":"open_session","app":3})"}) {
    EXPECT_FALSE(ParseRequest(bad, &r, &e)) << bad;
    EXPECT_STREQ(e.code, errors::kBadRequest) << bad;
  }
  AppType parsed = AppType::kCode;
  EXPECT_FALSE(ParseAppType("terminal", &parsed).ok());
  EXPECT_EQ(parsed, AppType::kCode);  // untouched
}

// The session's autocorrect level and no-learn flag, and a commit that is an autocorrection.
TEST(ProtocolTest, AutocorrectLevelNoLearnAndTheCorrectionCommit) {
  ProtocolRequest r;
  ProtocolError e;
  ASSERT_TRUE(ParseRequest(R"({"op":"open_session"})", &r, &e));
  EXPECT_EQ(r.autocorrect, AutocorrectLevel::kNormal);
  EXPECT_FALSE(r.no_learn);
  ASSERT_TRUE(
      ParseRequest(R"({"op":"open_session","autocorrect":"eager","no_learn":true})", &r, &e));
  EXPECT_EQ(r.autocorrect, AutocorrectLevel::kEager);
  EXPECT_TRUE(r.no_learn);
  ASSERT_TRUE(ParseRequest(R"({"op":"open_session","autocorrect":"off"})", &r, &e));
  EXPECT_EQ(r.autocorrect, AutocorrectLevel::kOff);
  for (const char* bad :
       {R"({"op":"open_session","autocorrect":"always"})",
        R"({"op":"open_session","autocorrect":2})", R"({"op":"open_session","no_learn":"yes"})",
        R"({"op":"commit","session":1,"word":"the","autocorrect":1})"}) {
    EXPECT_FALSE(ParseRequest(bad, &r, &e)) << bad;
    EXPECT_STREQ(e.code, errors::kBadRequest) << bad;
  }
  ASSERT_TRUE(ParseRequest(R"({"op":"commit","session":1,"word":"the"})", &r, &e));
  EXPECT_FALSE(r.correction);
  ASSERT_TRUE(
      ParseRequest(R"({"op":"commit","session":1,"word":"the","autocorrect":true})", &r, &e));
  EXPECT_TRUE(r.correction);
  EXPECT_EQ(r.text, "the");
}

// Issue 49: pick names a candidate of the last decision by its id, in "candidate" ("id" stays
// the request's own, echoed).
TEST(ProtocolTest, PickNamesACandidate) {
  ProtocolRequest r;
  ProtocolError e;
  ASSERT_TRUE(ParseRequest(R"({"id":9,"op":"pick","session":2,"candidate":7,"k":4})", &r, &e));
  EXPECT_EQ(r.op, Op::kPick);
  EXPECT_STREQ(OpName(r.op), "pick");
  EXPECT_EQ(r.id, "9");
  EXPECT_EQ(r.session, 2u);
  EXPECT_EQ(r.candidate, 7u);
  EXPECT_EQ(r.k, 4);
  ASSERT_TRUE(ParseRequest(R"({"op":"pick","session":2,"candidate":4294967295})", &r, &e));
  EXPECT_EQ(r.candidate, 4294967295u);
  for (const char* bad :
       {R"({"op":"pick","session":2})", R"({"op":"pick","session":2,"candidate":0})",
        R"({"op":"pick","session":2,"candidate":-1})",
        R"({"op":"pick","session":2,"candidate":4294967296})",
        R"({"op":"pick","session":2,"candidate":"7"})", R"({"op":"pick","candidate":7})"}) {
    EXPECT_FALSE(ParseRequest(bad, &r, &e)) << bad;
    EXPECT_STREQ(e.code, errors::kBadRequest) << bad;
  }
}

TEST(ProtocolTest, RefusesWithACode) {
  ProtocolRequest r;
  ProtocolError e;
  EXPECT_FALSE(ParseRequest("", &r, &e));
  EXPECT_STREQ(e.code, errors::kBadJson);
  EXPECT_FALSE(ParseRequest(R"({"id":"q","op":"nope"})", &r, &e));
  EXPECT_STREQ(e.code, errors::kUnknownOp);
  EXPECT_EQ(r.id, "\"q\"");  // still known, for the error response
  EXPECT_FALSE(ParseRequest(R"({"op":"backspace","session":1,"count":0})", &r, &e));
  EXPECT_STREQ(e.code, errors::kBadRequest);
  EXPECT_FALSE(ParseRequest(R"({"op":"key","session":1,"text":""})", &r, &e));
  EXPECT_FALSE(ParseRequest(R"({"op":"key","session":1,"text":"a","t_ms":-1})", &r, &e));
  EXPECT_FALSE(ParseRequest(R"({"id":1e5,"op":"hello"})", &r, &e));  // would echo 100000.0
  EXPECT_NE(e.message.find("an integer"), std::string::npos);
  ASSERT_TRUE(ParseRequest(R"({"id":100000,"op":"hello"})", &r, &e));
  EXPECT_EQ(r.id, "100000");
  constexpr char kWithNul[] = "{\"op\":\"hello\"}\0garbage";
  EXPECT_FALSE(ParseRequest(std::string_view(kWithNul, sizeof(kWithNul) - 1), &r, &e));
  EXPECT_EQ(e.code, std::string(errors::kBadJson));
  EXPECT_FALSE(ParseRequest(R"({"op":"key","session":1,"text":"a","t_ms":1.5})", &r, &e));
  EXPECT_FALSE(ParseRequest(R"({"op":"key","session":1,"text":"a","t_ms":"now"})", &r, &e));
  EXPECT_FALSE(ParseRequest(R"({"op":"key","session":18446744073709551615,"text":"a"})", &r, &e));
  EXPECT_FALSE(ParseRequest(R"({"op":"key","session":1,"text":"a","decide":1})", &r, &e));
  EXPECT_FALSE(ParseRequest(R"({"op":"hello","id":")" + std::string(200, 'x') + "\"}", &r, &e));
  EXPECT_FALSE(ParseRequest(std::string(9, '{'), &r, &e));
  EXPECT_STREQ(e.code, errors::kBadJson);
  // Brackets inside strings do not count as nesting.
  EXPECT_TRUE(ParseRequest(R"({"op":"key","session":1,"text":"[[[[[[[[[[[[[[[[[[[["})", &r, &e));
}

TEST(ProtocolTest, ErrorLinesAreValidJsonWhateverTheMessage) {
  const std::string line = ErrorLine("7", "bad_request", "quote \" and \xFF byte\n");
  ASSERT_EQ(line.back(), '\n');
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["id"], 7);
  EXPECT_FALSE(j["ok"].get<bool>());
  EXPECT_EQ(j["error"]["code"], "bad_request");
  EXPECT_EQ(nlohmann::json::parse(ErrorLine("", "x", "y"))["id"], nullptr);
}

TEST(ProtocolTest, ResponseLinesRoundTrip) {
  Decision d;
  d.composition = "tom\"o";
  d.preedit = "ni'hao";
  d.candidates.push_back({"tomorrow", -1.5f, 0, CandidateKind::kCompletion});
  d.candidates.push_back({"tab\there", -2.25f, 10, CandidateKind::kCorrection, 42});
  d.tier = Tier::kNoVocabProposals;
  d.popup.show = true;
  Response r;
  r.outcome = Outcome::kDecided;
  r.decision = &d;
  r.coalesced = 3;
  std::string line;
  AppendResponseLine("\"x\"", 4, r, &line);
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["id"], "x");
  EXPECT_EQ(j["session"], 4);
  EXPECT_EQ(j["outcome"], "decided");
  EXPECT_EQ(j["coalesced"], 3);
  EXPECT_EQ(j["decision"]["composition"], "tom\"o");
  EXPECT_EQ(j["decision"]["preedit"], "ni'hao");
  EXPECT_EQ(j["decision"]["tier"], "no_vocab_proposals");
  ASSERT_EQ(j["decision"]["candidates"].size(), 2u);
  EXPECT_EQ(j["decision"]["candidates"][1]["text"], "tab\there");
  EXPECT_EQ(j["decision"]["candidates"][1]["kind"], "correction");
  EXPECT_EQ(j["decision"]["candidates"][1]["id"], 42);  // what pick names it by
  EXPECT_FLOAT_EQ(j["decision"]["candidates"][0]["score"].get<float>(), -1.5f);

  line.clear();
  r.outcome = Outcome::kSuperseded;
  r.decision = nullptr;
  AppendResponseLine("", 4, r, &line);
  const auto s = nlohmann::json::parse(line);
  EXPECT_EQ(s["outcome"], "superseded");
  EXPECT_FALSE(s.contains("decision"));

  line.clear();
  r.outcome = Outcome::kFailed;
  r.status = Status::InvalidArgument("invalid UTF-8");
  AppendResponseLine("1", 4, r, &line);
  EXPECT_EQ(nlohmann::json::parse(line)["error"]["code"], "invalid_text");
}

}  // namespace
}  // namespace keydecide::service
