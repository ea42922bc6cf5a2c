// The server (server.h): JSON-RPC dispatch and lifecycle, the learning rule (what is typed into
// a session and what is only context), the code/comment rule, the caps; then the real engine.

#include "server.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fake_session.h"
#include "keydecide/engine.h"

namespace keydecide::ls {
namespace {

using nlohmann::json;

class ServerHarness {
 public:
  explicit ServerHarness(SessionFactory factory = nullptr, ServerOptions options = {})
      : server_(factory ? std::move(factory) : Fake(&log_), options,
                [this](std::string_view line) { stderr_.emplace_back(line); }) {}

  static SessionFactory Fake(FakeLog* log) {
    return [log](const SessionOptions&) { return std::make_unique<FakeSession>(log); };
  }

  // Sends one message; returns the replies.
  std::vector<json> Send(const std::string& body) {
    std::vector<std::string> out;
    server_.Handle(body, &out);
    std::vector<json> replies;
    for (const std::string& s : out) replies.push_back(json::parse(s));
    return replies;
  }
  json Request(const std::string& method, const json& params) {
    const auto replies = Send(
        json{{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method}, {"params", params}}.dump());
    EXPECT_EQ(replies.size(), 1u) << method;
    return replies.empty() ? json() : replies[0];
  }
  void Notify(const std::string& method, const json& params) {
    EXPECT_TRUE(
        Send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump()).empty())
        << method;
  }
  void Initialize(const json& options = json::object()) {
    const json r = Request("initialize",
                           {{"capabilities", json::object()}, {"initializationOptions", options}});
    ASSERT_TRUE(r.contains("result")) << r.dump();
    Notify("initialized", json::object());
  }
  void Open(const std::string& uri, const std::string& language, const std::string& text) {
    Notify("textDocument/didOpen",
           {{"textDocument",
             {{"uri", uri}, {"languageId", language}, {"version", 1}, {"text", text}}}});
  }
  void Edit(const std::string& uri, int line0, int ch0, int line1, int ch1,
            const std::string& text) {
    Notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", ++version_}}},
                                      {"contentChanges",
                                       {{{"range",
                                          {{"start", {{"line", line0}, {"character", ch0}}},
                                           {"end", {{"line", line1}, {"character", ch1}}}}},
                                         {"text", text}}}}});
  }
  void Type(const std::string& uri, int line, int ch, const std::string& text) {
    Edit(uri, line, ch, line, ch, text);
  }
  json Complete(const std::string& uri, int line, int ch) {
    return Request("textDocument/completion", {{"textDocument", {{"uri", uri}}},
                                               {"position", {{"line", line}, {"character", ch}}}});
  }
  static std::vector<std::string> Labels(const json& reply) {
    std::vector<std::string> labels;
    for (const json& item : reply["result"]["items"]) labels.push_back(item["label"]);
    return labels;
  }

  FakeLog log_;
  std::vector<std::string> stderr_;
  Server server_;
  int id_ = 0;
  int version_ = 1;
};

TEST(ServerTest, Lifecycle) {
  ServerHarness h;
  EXPECT_EQ(h.Request("textDocument/completion", json::object())["error"]["code"], -32002);
  const json init = h.Request("initialize", {{"capabilities", json::object()}});
  EXPECT_EQ(init["result"]["capabilities"]["textDocumentSync"]["change"], 2);
  EXPECT_EQ(init["result"]["capabilities"]["positionEncoding"], "utf-16");
  EXPECT_TRUE(init["result"]["capabilities"]["completionProvider"]["resolveProvider"]);
  EXPECT_EQ(h.Request("initialize", json::object())["error"]["code"], -32600);
  EXPECT_EQ(h.Request("textDocument/hover", json::object())["error"]["code"], -32601);
  h.Notify("$/cancelRequest", {{"id", 1}});
  h.Notify("workspace/unknownThing", json::object());
  const json item = {{"label", "x"}, {"kind", 1}};
  EXPECT_EQ(h.Request("completionItem/resolve", item)["result"], item);
  EXPECT_TRUE(h.Request("shutdown", nullptr)["result"].is_null());
  EXPECT_EQ(h.Request("textDocument/completion", json::object())["error"]["code"], -32600);
  EXPECT_FALSE(h.server_.exited());
  h.Notify("exit", nullptr);
  EXPECT_TRUE(h.server_.exited());
  EXPECT_EQ(h.server_.exit_code(), 0);

  ServerHarness abrupt;
  abrupt.Initialize();
  abrupt.Notify("exit", nullptr);
  EXPECT_EQ(abrupt.server_.exit_code(), 1);  // exit without shutdown
}

TEST(ServerTest, Utf8PositionsWhenTheClientOffersThem) {
  ServerHarness h;
  const json init =
      h.Request("initialize",
                {{"capabilities", {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}}}});
  EXPECT_EQ(init["result"]["capabilities"]["positionEncoding"], "utf-8");
  h.Open("file:///a.md", "markdown", "é fo");
  const json reply = h.Complete("file:///a.md", 0, 5);  // bytes: é is 2
  ASSERT_EQ(ServerHarness::Labels(reply), (std::vector<std::string>{"fox", "foy"}));
  EXPECT_EQ(reply["result"]["items"][0]["textEdit"]["range"]["start"]["character"], 3);
}

TEST(ServerTest, MalformedMessagesGetErrorsNotCrashes) {
  ServerHarness h;
  h.Initialize();
  for (const std::string& body : {std::string("{"), std::string("nul"), std::string(1000, '[')}) {
    const auto replies = h.Send(body);
    ASSERT_EQ(replies.size(), 1u);
    EXPECT_EQ(replies[0]["error"]["code"], -32700);
    EXPECT_TRUE(replies[0]["id"].is_null());
  }
  EXPECT_EQ(h.Send("[1,2]")[0]["error"]["code"], -32600);
  EXPECT_EQ(h.Send(R"({"jsonrpc":"2.0","id":{"a":1},"method":"x"})")[0]["error"]["code"], -32600);
  EXPECT_EQ(h.Send(R"({"jsonrpc":"2.0","id":7})")[0]["error"]["code"], -32600);
  EXPECT_TRUE(h.Send(R"({"jsonrpc":"2.0","id":7,"result":null})").empty());  // a response
  EXPECT_EQ(h.Request("textDocument/completion", {{"position", 3}})["error"]["code"], -32602);
  EXPECT_EQ(h.Request("textDocument/completion", json::array())["error"]["code"], -32602);
  h.Notify("textDocument/didOpen", {{"textDocument", 5}});
  h.Notify("textDocument/didChange",
           {{"textDocument", {{"uri", "file:///none"}}}, {"contentChanges", {{{"text", "x"}}}}});
  h.Notify("textDocument/didChange", {{"contentChanges", "x"}});
  std::vector<std::string> out;
  h.server_.HandleFramingError("header without Content-Length", &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(json::parse(out[0])["error"]["code"], -32700);
}

TEST(ServerTest, OpenedTextIsContextTypedTextIsTyped) {
  ServerHarness h;
  h.Initialize();
  const std::string uri = "file:///notes.md";
  h.Open(uri, "markdown", "opened text\nhello wo");
  EXPECT_EQ(ServerHarness::Labels(h.Complete(uri, 1, 8)), (std::vector<std::string>{"wox", "woy"}));
  ASSERT_EQ(h.log_.calls.size(), 1u);
  EXPECT_EQ(h.log_.calls[0], "context:opened text\nhello wo");
  // Keys typed at the cursor are typed into the session, backspaces included.
  h.Type(uri, 1, 8, "r");
  h.Type(uri, 1, 9, "k");
  h.Edit(uri, 1, 9, 1, 10, "");
  h.Type(uri, 1, 9, "l");
  h.Type(uri, 1, 10, "d ");
  EXPECT_EQ(ServerHarness::Labels(h.Complete(uri, 1, 12)), (std::vector<std::string>{"x", "y"}));
  ASSERT_EQ(h.log_.calls.size(), 2u);
  EXPECT_EQ(h.log_.calls[1], "type:rld ");
  // A paste is context, not typing.
  const std::string paste = "this was pasted from somewhere else entirely ";
  h.Type(uri, 1, 12, paste);
  h.Complete(uri, 1, 12 + static_cast<int>(paste.size()));
  ASSERT_EQ(h.log_.calls.size(), 3u);
  EXPECT_EQ(h.log_.calls[2].rfind("context:", 0), 0u);
  // An edit before the cursor (an undo, a formatter) is context too.
  h.Type(uri, 1, 0, "X");
  h.Complete(uri, 1, 13 + static_cast<int>(paste.size()));
  EXPECT_EQ(h.log_.calls.back().rfind("context:", 0), 0u);
}

TEST(ServerTest, TakingAnOfferedCompletionPicksIt) {
  ServerHarness h;
  h.Initialize();
  const std::string uri = "file:///a.txt";
  h.Open(uri, "plaintext", "say fo");
  const json reply = h.Complete(uri, 0, 6);
  const json& edit = reply["result"]["items"][1]["textEdit"];
  EXPECT_EQ(edit["range"]["start"]["character"], 4);
  EXPECT_EQ(edit["range"]["end"]["character"], 6);
  // VS Code's way: the word replaced by the item's text. Its letters came with the file: the
  // text before it becomes the context and the word is accepted (the engine never learns a
  // word that began in context).
  h.Edit(uri, 0, 4, 0, 6, "foy");
  h.Type(uri, 0, 7, " ");
  h.Complete(uri, 0, 8);
  EXPECT_EQ(h.log_.calls[1], "context:say ");
  EXPECT_EQ(h.log_.calls[2], "accept:foy");
  EXPECT_EQ(h.log_.calls[3], "type: ");
  // Neovim's way: the rest of the word inserted; its letters were typed here, so it is picked.
  h.Type(uri, 0, 8, "ba");
  h.Complete(uri, 0, 10);
  h.Type(uri, 0, 10, "x");
  h.Complete(uri, 0, 11);
  EXPECT_EQ(h.log_.calls[4], "type:ba");
  EXPECT_EQ(h.log_.calls[5], "pick:bax");
  EXPECT_EQ(h.log_.calls.size(), 6u);
}

TEST(ServerTest, ANewDocumentIsTypedFromItsFirstKey) {
  ServerHarness h;
  h.Initialize();
  const std::string uri = "file:///new.md";
  h.Open(uri, "markdown", "\n");  // Neovim's new file
  h.Type(uri, 0, 0, "H");
  h.Type(uri, 0, 1, "i th");
  h.Complete(uri, 0, 5);
  ASSERT_EQ(h.log_.calls.size(), 1u);
  EXPECT_EQ(h.log_.calls[0], "type:Hi th");
}

TEST(ServerTest, APackThatDoesNotReopenGetsTheLettersTyped) {
  ServerOptions options;
  options.word_continues = [](std::string_view, std::string_view ch) {
    return ch.size() == 1 && ch[0] >= 'a' && ch[0] <= 'z';
  };
  ServerHarness h(nullptr, options);
  h.Initialize();
  h.Open("file:///a.md", "markdown", "今天 nihao");
  EXPECT_EQ(ServerHarness::Labels(h.Complete("file:///a.md", 0, 8)),
            (std::vector<std::string>{"nihaox", "nihaoy"}));
  ASSERT_EQ(h.log_.calls.size(), 2u);
  EXPECT_EQ(h.log_.calls[0], "context:今天 ");
  EXPECT_EQ(h.log_.calls[1], "type:nihao");
  // Taking an item picks it: its letters were typed into the session.
  h.Edit("file:///a.md", 0, 3, 0, 8, "nihaoy");
  EXPECT_EQ(h.log_.calls.back(), "pick:nihaoy");
}

TEST(ServerTest, CodeOnlyInCommentsAndStrings) {
  ServerHarness h;
  h.Initialize();
  const std::string uri = "file:///a.c";
  h.Open(uri, "c", "int fo\n// see you fo\nputs(\"a fo");
  EXPECT_TRUE(ServerHarness::Labels(h.Complete(uri, 0, 6)).empty());
  EXPECT_TRUE(h.log_.calls.empty());  // no session was even asked
  EXPECT_EQ(ServerHarness::Labels(h.Complete(uri, 1, 13)),
            (std::vector<std::string>{"fox", "foy"}));
  EXPECT_EQ(h.log_.calls.back(), "context: see you fo");  // the comment's text only
  EXPECT_EQ(ServerHarness::Labels(h.Complete(uri, 2, 10)),
            (std::vector<std::string>{"fox", "foy"}));
  EXPECT_EQ(h.log_.calls.back(), "context:a fo");

  // An edit before the cursor changes what the cursor is in (the scanner's checkpoint goes).
  const std::string uri2 = "file:///b.c";
  h.Open(uri2, "c", "int x; /* see you fo");
  EXPECT_EQ(ServerHarness::Labels(h.Complete(uri2, 0, 20)).size(), 2u);
  h.Edit(uri2, 0, 7, 0, 9, "x ");
  EXPECT_TRUE(ServerHarness::Labels(h.Complete(uri2, 0, 20)).empty());
  h.Edit(uri2, 0, 7, 0, 9, "//");
  EXPECT_EQ(ServerHarness::Labels(h.Complete(uri2, 0, 20)).size(), 2u);

  ServerHarness everywhere;
  everywhere.Initialize({{"completeInCode", true}, {"maxItems", 1}});
  everywhere.Open(uri, "c", "int fo");
  EXPECT_EQ(ServerHarness::Labels(everywhere.Complete(uri, 0, 6)),
            (std::vector<std::string>{"fox"}));
}

TEST(ServerTest, HugeDocumentGetsAnErrorAndLogsNoText) {
  ServerHarness h;
  h.Initialize();
  std::string big(10u << 20, 'a');
  big += " secretword";
  h.Open("file:///big.txt", "plaintext", big);
  const json reply = h.Complete("file:///big.txt", 0, 3);
  EXPECT_EQ(reply["error"]["code"], -32803);
  ASSERT_FALSE(h.stderr_.empty());
  for (const std::string& line : h.stderr_) {
    EXPECT_EQ(line.find("secretword"), std::string::npos);
    EXPECT_EQ(line.find("big.txt"), std::string::npos);
  }
  // Other documents are still served.
  h.Open("file:///small.txt", "plaintext", "fo");
  EXPECT_EQ(ServerHarness::Labels(h.Complete("file:///small.txt", 0, 2)).size(), 2u);
}

TEST(ServerTest, SessionsAreCapped) {
  ServerHarness h;
  h.Initialize();
  for (int i = 0; i < 20; ++i) {
    const std::string uri = "file:///" + std::to_string(i) + ".md";
    h.Open(uri, "markdown", "fo");
    h.Complete(uri, 0, 2);
  }
  EXPECT_EQ(h.server_.documents().size(), 20u);
  EXPECT_EQ(h.server_.documents().sessions(), DocumentStore::kMaxSessions);
}

// The real engine behind the server, as keydecide-ls runs it (models from $KEYDECIDE_MODEL_DIR).
TEST(ServerEngineTest, MarkdownCompletesTomorrow) {
  std::unique_ptr<Engine> engine;
  EngineOptions options;
  ASSERT_TRUE(Engine::Open(options, &engine).ok());
  ServerHarness h([&engine](const SessionOptions& o) { return engine->NewSession(o); });
  h.Initialize();
  const std::string uri = "file:///notes.md";
  h.Open(uri, "markdown", "# Plans\n\n😀 see you tomo");
  const json reply = h.Complete(uri, 2, 15);
  ASSERT_FALSE(ServerHarness::Labels(reply).empty()) << reply.dump();
  EXPECT_EQ(ServerHarness::Labels(reply)[0], "tomorrow");
  const json& range = reply["result"]["items"][0]["textEdit"]["range"];
  EXPECT_EQ(range["start"]["character"], 11);  // 😀 is two UTF-16 units
  EXPECT_EQ(range["end"]["character"], 15);
  // Next words after a space.
  h.Type(uri, 2, 15, "rrow ");
  const json next = h.Complete(uri, 2, 20);
  EXPECT_FALSE(ServerHarness::Labels(next).empty());
  EXPECT_EQ(next["result"]["items"][0]["detail"], "keydecide: next word");
}

// Pinyin: the pack's word rule (PackTraits) makes the letters at the end of the context a
// composition, as keydecide-ls's main() sets it up.
TEST(ServerEngineTest, PinyinConvertsTheLettersBeforeTheCursor) {
  std::unique_ptr<Engine> engine;
  EngineOptions options;
  options.language = "zh";
  ASSERT_TRUE(Engine::Open(options, &engine).ok());
  const WordRule rule = engine->info().traits.word;
  ASSERT_FALSE(rule.reopens);
  ServerOptions server_options;
  server_options.word_continues = [rule](std::string_view word, std::string_view ch) {
    return ExtendsWord(rule, word, ch);
  };
  ServerHarness h([&engine](const SessionOptions& o) { return engine->NewSession(o); },
                  server_options);
  h.Initialize();
  h.Open("file:///a.md", "markdown", "今天 nihao");
  const json reply = h.Complete("file:///a.md", 0, 8);
  ASSERT_FALSE(ServerHarness::Labels(reply).empty()) << reply.dump();
  EXPECT_EQ(ServerHarness::Labels(reply)[0], "你好");
  EXPECT_EQ(reply["result"]["items"][0]["textEdit"]["range"]["start"]["character"], 3);
}

}  // namespace
}  // namespace keydecide::ls
