// keydecide-ls: a language server (LSP over stdin/stdout) that offers keydecide's completions
// and next words in an editor (docs/INTEGRATION.md, "Language server"). One engine serves
// every open document; the documents are the context; stderr gets short notes without any of
// the person's text.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "keydecide/engine.h"
#include "message_reader.h"
#include "server.h"

namespace {

void Log(std::string_view line) {
  std::fprintf(stderr, "keydecide-ls: %.*s\n", static_cast<int>(line.size()), line.data());
}

bool WriteAll(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Reads framed messages from stdin until exit or end of input; returns the exit code.
int Serve(keydecide::ls::Server* server) {
  keydecide::ls::MessageReader reader;
  std::vector<std::string> out;
  std::string body, error;
  std::vector<char> chunk(1 << 16);
  while (!server->exited()) {
    const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the client went away
    reader.Append(std::string_view(chunk.data(), static_cast<size_t>(n)));
    for (;;) {
      const auto result = reader.Next(&body, &error);
      if (result == keydecide::ls::MessageReader::Result::kNeedMore) break;
      out.clear();
      if (result == keydecide::ls::MessageReader::Result::kError) {
        server->HandleFramingError(error, &out);
      } else {
        server->Handle(body, &out);
      }
      for (const std::string& reply : out) {
        if (!WriteAll(keydecide::ls::FrameMessage(reply))) return 1;
      }
      if (server->exited()) break;
    }
  }
  return server->exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "keydecide-ls: keydecide's completions in any editor, as a language server "
      "(LSP over stdin and stdout)"};
  app.set_version_flag("--version", "keydecide-ls " KEYDECIDE_LS_VERSION);
  keydecide::EngineOptions engine_options;
  keydecide::ls::ServerOptions server_options;
  bool no_learn = false, no_personal = false;
  app.add_option("--lang", engine_options.language, "Language pack: en or zh")
      ->capture_default_str();
  app.add_option("--model-dir", engine_options.model_dir,
                 "Models folder (default: $KEYDECIDE_MODEL_DIR, else the data folders and the "
                 "installed models: docs/INTEGRATION.md)");
  app.add_option("--store", engine_options.user_store_path,
                 "The person's store (default: $XDG_DATA_HOME/keydecide/user.db)");
  app.add_flag("--no-learn", no_learn, "Learn nothing (still rank with what the store holds)");
  app.add_flag("--no-personal", no_personal, "Neither read nor write the person's store");
  app.add_option("--max-items", server_options.max_items, "Completion items per request")
      ->check(CLI::Range(1, 50))
      ->capture_default_str();
  app.add_flag("--complete-in-code", server_options.complete_in_code,
               "Complete in source code too, not only in its comments and strings");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // a usage error: exit 2, as for most Unix tools
    app.exit(e);
    return 2;
  }
  engine_options.personal = !no_personal;
  engine_options.learn = !no_learn;
  server_options.learn = !no_learn && !no_personal;

  std::unique_ptr<keydecide::Engine> engine;
  const keydecide::Status s = keydecide::Engine::Open(engine_options, &engine);
  if (!s.ok()) {
    Log("cannot open the engine: " + s.ToString());
    return 1;
  }
  const keydecide::Engine::Info info = engine->info();
  Log("serving " + info.language + " (" + info.scorer + ", personal " +
      (info.personal.rfind("on", 0) == 0 ? std::string(no_learn ? "on, not learning" : "on")
                                         : info.personal) +
      ")");
  if (!info.traits.word.reopens) {  // pinyin: the letters at a context's end are typed after it
    server_options.word_continues = [rule = info.traits.word](std::string_view word,
                                                              std::string_view ch) {
      return keydecide::ExtendsWord(rule, word, ch);
    };
  }
  keydecide::ls::Server server(
      [&engine](const keydecide::SessionOptions& o) { return engine->NewSession(o); },
      server_options, Log);
  const int code = Serve(&server);
  engine->FlushLearning();
  return code;
}
