// The fcitx5 input method typed headlessly, as fcitx5-chinese-addons tests its pinyin: a real
// fcitx::Instance with fcitx5's test addons (testfrontend creates input contexts and types keys,
// testim supplies the keyboard, testui draws nothing) and our addon from the build tree. Each
// scenario types keys into its own input context and states what must be committed
// (pushCommitExpectation: a wrong or missing commit aborts the run); candidates are found by
// their text, not their place, since the models change.
//
//   fcitx5_typing_test --backend in_process|daemon --work DIR --daemon PATH/keydecided
//
// The environment names the addon and data folders (frontends/fcitx5/CMakeLists.txt) and
// KEYDECIDE_MODEL_DIR the models; the test writes the addon's configuration under DIR (fcitx5's
// user folder for this run: SKIP_FCITX_USER_PATH must not be set, or the file is not read) and,
// for the daemon backend, starts keydecided on a socket there. The configuration waits for
// every decision, so the test does not depend on how fast the engine is (a sanitizer build).

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <fcitx-utils/eventdispatcher.h>
#include <fcitx-utils/log.h>
#include <fcitx/addonmanager.h>
#include <fcitx/candidatelist.h>
#include <fcitx/inputcontextmanager.h>
#include <fcitx/inputmethodmanager.h>
#include <fcitx/inputpanel.h>
#include <fcitx/instance.h>

#include "keydecide/keydecide.h"
#include "testfrontend_public.h"

namespace {

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    ++g_checks;                                                            \
    if (!(cond)) {                                                         \
      ++g_failures;                                                        \
      std::cerr << __FILE__ << ":" << __LINE__ << ": FAILED: " #cond "\n"; \
    }                                                                      \
  } while (0)

struct Options {
  std::string backend = "in_process";
  std::string work;
  std::string daemon;
  std::string store;  // the user store of this run
};

class Typist {
 public:
  Typist(fcitx::Instance* instance, fcitx::AddonInstance* frontend)
      : instance_(instance), frontend_(frontend) {}

  // A new input context with our input method active (Control+space: the trigger key).
  fcitx::InputContext* NewContext(fcitx::CapabilityFlags caps = fcitx::CapabilityFlag::Preedit) {
    uuid_ = frontend_->call<fcitx::ITestFrontend::createInputContext>("typing-test");
    fcitx::InputContext* ic = instance_->inputContextManager().findByUUID(uuid_);
    ic->setCapabilityFlags(caps);
    Key("Control+space");
    CHECK(instance_->inputMethod(ic) == "keydecide");
    return ic;
  }

  void Key(const std::string& name) {
    frontend_->call<fcitx::ITestFrontend::keyEvent>(uuid_, fcitx::Key(name), false);
    frontend_->call<fcitx::ITestFrontend::keyEvent>(uuid_, fcitx::Key(name), true);
  }

  // One key per character: letters, digits and a few named keys.
  void Type(const std::string& text) {
    for (char c : text) {
      switch (c) {
        case ' ':
          Key("space");
          break;
        case '\'':
          Key("apostrophe");
          break;
        case ',':
          Key("comma");
          break;
        case '.':
          Key("period");
          break;
        default:
          Key(std::string(1, c));
      }
    }
  }

  void Expect(const std::string& commit) {
    frontend_->call<fcitx::ITestFrontend::pushCommitExpectation>(commit);
  }

 private:
  fcitx::Instance* instance_;
  fcitx::AddonInstance* frontend_;
  fcitx::ICUUID uuid_;
};

std::string Preedit(fcitx::InputContext* ic) { return ic->inputPanel().clientPreedit().toString(); }

// Where `text` is among the candidates shown (the whole list), or -1.
int Find(fcitx::InputContext* ic, const std::string& text) {
  auto list = ic->inputPanel().candidateList();
  if (!list) return -1;
  const fcitx::BulkCandidateList* bulk = list->toBulk();
  for (int i = 0; i < bulk->totalSize(); ++i) {
    if (bulk->candidateFromAll(i).text().toString() == text) return i;
  }
  return -1;
}

void English(Typist& t) {
  // Words commit with their space; a candidate picked with Tab (the first) comes with one.
  fcitx::InputContext* ic = t.NewContext();
  t.Expect("see ");
  t.Expect("you ");
  t.Type("see you tomo");
  CHECK(Preedit(ic) == "tomo");
  CHECK(Find(ic, "tomorrow") == 0);  // the bar is open: the decision says it helps
  t.Expect("tomorrow ");
  t.Key("Tab");
  CHECK(Preedit(ic).empty());

  // A number key picks from the page.
  ic = t.NewContext();
  t.Expect("see ");
  t.Expect("you ");
  t.Type("see you tomo");
  const int second = Find(ic, "tomorrow's");
  CHECK(second > 0 && second < 5);
  if (second > 0 && second < 5) {
    t.Expect("tomorrow's ");
    t.Key(std::to_string(second + 1));
  }

  // Backspace edits the word being typed.
  ic = t.NewContext();
  t.Type("helo");
  t.Key("BackSpace");
  t.Type("lo");
  CHECK(Preedit(ic) == "hello");
  t.Expect("hello ");
  t.Key("space");

  // Autocorrect on space, undone by the Backspace right after it: the typed letters come back
  // as the preedit (the application's text is deleted through the surrounding text) and are
  // not corrected again there.
  ic = t.NewContext(fcitx::CapabilityFlags{fcitx::CapabilityFlag::Preedit,
                                           fcitx::CapabilityFlag::SurroundingText});
  t.Expect("I ");
  t.Expect("saw ");
  t.Expect("the ");
  t.Type("I saw teh ");
  ic->surroundingText().setText("I saw the ", 10, 10);
  t.Key("BackSpace");
  CHECK(Preedit(ic) == "teh");
  t.Expect("teh ");
  t.Key("space");

  // Paging: the second page's first candidate under "1".
  ic = t.NewContext();
  t.Expect("see ");
  t.Expect("you ");
  t.Type("see you tomo");
  auto list = ic->inputPanel().candidateList();
  auto* pageable = list ? list->toPageable() : nullptr;
  CHECK(pageable != nullptr && pageable->hasNext());
  if (pageable != nullptr && pageable->hasNext()) {
    t.Key("Page_Down");
    list = ic->inputPanel().candidateList();
    const std::string first_of_page_two = list->candidate(0).text().toString();
    CHECK(list->toPageable()->currentPage() == 1);
    t.Expect(first_of_page_two + " ");
    t.Key("1");
  }
}

// The person's shortcut (made in the store before the addon started): typing its trigger
// offers the expansion first, and the space that ends it expands it. A Backspace right after
// undoes the expansion: the trigger comes back as the preedit and the next space ends it as
// typed; typed again later, it expands again.
void Shortcut(Typist& t) {
  fcitx::InputContext* ic = t.NewContext(fcitx::CapabilityFlags{
      fcitx::CapabilityFlag::Preedit, fcitx::CapabilityFlag::SurroundingText});
  t.Type("omw");
  CHECK(Preedit(ic) == "omw");
  CHECK(Find(ic, "On my way!") == 0);
  t.Expect("On my way! ");
  t.Key("space");
  CHECK(Preedit(ic).empty());
  ic->surroundingText().setText("On my way! ", 11, 11);
  t.Key("BackSpace");
  CHECK(Preedit(ic) == "omw");
  t.Expect("omw ");
  t.Key("space");
  CHECK(Preedit(ic).empty());
  t.Type("omw");
  t.Expect("On my way! ");
  t.Key("space");
}

// A terminal (issue 51): terminals do not flag password prompts, so `sudo ...⏎secret⏎` would be
// learned; nothing typed in a terminal is learned unless the LearnInTerminals option is on.
// A field that asks for no spell checking (NoSpellCheck) is never autocorrected: "teh" stays.
void Terminal(Typist& t) {
  t.NewContext(
      fcitx::CapabilityFlags{fcitx::CapabilityFlag::Preedit, fcitx::CapabilityFlag::Terminal});
  for (const char* word : {"sudo ", "ls ", "Termsecretqq ", "Termsecretqq "}) t.Expect(word);
  t.Type("sudo ls Termsecretqq Termsecretqq ");
  t.NewContext(
      fcitx::CapabilityFlags{fcitx::CapabilityFlag::Preedit, fcitx::CapabilityFlag::NoSpellCheck});
  for (const char* word : {"I ", "saw ", "teh "}) t.Expect(word);
  t.Type("I saw teh ");
}

// A private field (Sensitive: GTK's INPUT_HINT_PRIVATE, Qt's ImhSensitiveData) gets candidates
// but teaches nothing: its words are not in the store after the run, while the same kind of
// word typed in an ordinary field is (the control that learning was on).
void Private(Typist& t) {
  fcitx::InputContext* ic = t.NewContext(
      fcitx::CapabilityFlags{fcitx::CapabilityFlag::Preedit, fcitx::CapabilityFlag::Sensitive});
  for (const char* word : {"see ", "you "}) t.Expect(word);
  t.Type("see you tomo");
  CHECK(Find(ic, "tomorrow") >= 0);
  t.Expect("tomorrow ");
  t.Key("Tab");
  for (const char* word : {"Privsecretqq ", "Privsecretqq "}) t.Expect(word);
  t.Type("Privsecretqq Privsecretqq ");
  t.NewContext();
  for (const char* word : {"Openwordqq ", "Openwordqq "}) t.Expect(word);
  t.Type("Openwordqq Openwordqq ");
}

// What the run's store learned: the export's text ("" when it cannot be read).
std::string StoreText(const std::string& store) {
  char* json = nullptr;
  if (kd_personal_export(store.c_str(), &json) != KD_OK) return "";
  std::string out = json;
  kd_string_free(json);
  return out;
}

// A password field is typed as it is: the keys reach the application. (Last: fcitx5 itself
// switches to the keyboard for such a field and stays there.)
void Password(Typist& t) {
  fcitx::InputContext* ic = t.NewContext();
  ic->setCapabilityFlags(
      fcitx::CapabilityFlags{fcitx::CapabilityFlag::Preedit, fcitx::CapabilityFlag::Password});
  fcitx::KeyEvent secret(ic, fcitx::Key("a"));
  ic->keyEvent(secret);
  CHECK(!secret.accepted());
}

void Pinyin(Typist& t) {
  fcitx::InputContext* ic = t.NewContext();
  t.Key("Control+Shift+space");  // English -> pinyin
  t.Type("nihao");
  CHECK(Preedit(ic) == "ni'hao");  // with its syllable break
  CHECK(Find(ic, "你好") == 0);
  t.Expect("你好");
  t.Key("space");
  CHECK(Preedit(ic).empty());

  // A word picked converts its letters; the rest stays to convert.
  t.Type("nihaozhongguo");
  CHECK(Find(ic, "你好中国") == 0);
  const int word = Find(ic, "你好");
  CHECK(word > 0 && word < 5);
  if (word > 0 && word < 5) {
    t.Expect("你好");
    t.Key(std::to_string(word + 1));
    CHECK(Preedit(ic) == "zhong'guo");
    CHECK(Find(ic, "中国") == 0);
    t.Expect("中国");
    t.Key("space");
  }

  // After a commit the window offers the words that follow (联想), picked by number.
  auto list = ic->inputPanel().candidateList();
  CHECK(list && list->size() > 0);
  if (list && list->size() > 0) {
    t.Expect(list->candidate(0).text().toString());
    t.Key("1");
  }

  // Enter commits the letters as typed; punctuation is full width.
  t.Type("nihao");
  t.Expect("nihao");
  t.Key("Return");
  t.Expect("，");
  t.Key("comma");

  // Back to English.
  t.Key("Control+Shift+space");
  t.Expect("hello ");
  t.Type("hello ");
}

pid_t StartDaemon(const Options& o, const std::string& socket) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl(o.daemon.c_str(), o.daemon.c_str(), "--socket", socket.c_str(), "--lang", "en,zh",
          "--personal", "--store", o.store.c_str(), "--quiet", static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 600; ++i) {  // up to 60 s for the models to load
    struct stat st;
    if (stat(socket.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) return pid;
    usleep(100000);
  }
  std::cerr << "keydecided did not start\n";
  kill(pid, SIGTERM);
  waitpid(pid, nullptr, 0);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--backend") o.backend = argv[i + 1];
    if (flag == "--work") o.work = argv[i + 1];
    if (flag == "--daemon") o.daemon = argv[i + 1];
  }
  if (o.work.empty() || (o.backend != "in_process" && o.backend != "daemon")) {
    std::cerr << "usage: fcitx5_typing_test --backend in_process|daemon --work DIR "
                 "--daemon KEYDECIDED\n";
    return 2;
  }
  // The user folders of this run: the addon's configuration, nothing of the person's.
  if (std::system(
          ("rm -rf '" + o.work + "' && mkdir -p '" + o.work + "/config/conf' '" + o.work + "/data'")
              .c_str()) != 0) {
    return 1;
  }
  chmod(o.work.c_str(), 0700);
  setenv("FCITX_CONFIG_HOME", (o.work + "/config").c_str(), 1);
  setenv("FCITX_DATA_HOME", (o.work + "/data").c_str(), 1);
  const std::string socket = o.work + "/keydecided.sock";
  // Learning on, into a store of this run (never the person's), which holds a shortcut.
  setenv("XDG_DATA_HOME", (o.work + "/xdg").c_str(), 1);
  o.store = o.work + "/xdg/keydecide/user.db";
  if (kd_personal_shortcut_set(o.store.c_str(), "omw", "On my way!") != KD_OK) {
    std::cerr << "cannot make the test's store: " << kd_last_error() << "\n";
    return 1;
  }
  {
    std::ofstream conf(o.work + "/config/conf/keydecide.conf");
    // Wait for every decision: the test checks each key's, so none may come late.
    conf << "DecisionWaitMs=10000\nLearn=True\n";
    if (o.backend == "daemon") conf << "Backend=Daemon\nSocket=" << socket << "\n";
  }
  pid_t daemon = -1;
  if (o.backend == "daemon" && (daemon = StartDaemon(o, socket)) < 0) return 1;

  char arg0[] = "fcitx5_typing_test";
  char arg1[] = "--disable=all";
  char arg2[] = "--enable=testim,testfrontend,testui,keydecide";
  char* fargv[] = {arg0, arg1, arg2};
  fcitx::Log::setLogRule("default=3");
  int rc = 0;
  {
    fcitx::Instance instance(3, fargv);
    instance.addonManager().registerDefaultLoader(nullptr);
    fcitx::EventDispatcher dispatcher;
    dispatcher.attach(&instance.eventLoop());
    dispatcher.schedule([&] {
      if (instance.addonManager().addon("keydecide", true) == nullptr) {
        std::cerr << "the keydecide addon did not load\n";
        ++g_failures;
      } else {
        auto group = instance.inputMethodManager().currentGroup();
        group.inputMethodList().clear();
        group.inputMethodList().push_back(fcitx::InputMethodGroupItem("keyboard-us"));
        group.inputMethodList().push_back(fcitx::InputMethodGroupItem("keydecide"));
        group.setDefaultInputMethod("");
        instance.inputMethodManager().setGroup(group);
        Typist t(&instance, instance.addonManager().addon("testfrontend"));
        English(t);
        Shortcut(t);
        Terminal(t);
        Private(t);
        Pinyin(t);
        Password(t);
      }
      dispatcher.detach();
      instance.exit();
    });
    rc = instance.exec();
  }
  if (daemon > 0) {
    kill(daemon, SIGTERM);
    waitpid(daemon, nullptr, 0);
  }
  // Learning is on, but nothing typed in the terminal was learned (the engine, in process or in
  // the daemon, wrote what it learned as it stopped).
  const std::string learned = StoreText(o.store);
  CHECK(learned.find("Termsecretqq") == std::string::npos);
  CHECK(learned.find("\"sudo\"") == std::string::npos);
  CHECK(learned.find("Privsecretqq") == std::string::npos);  // a private field's
  CHECK(learned.find("Openwordqq") != std::string::npos);    // an ordinary field's
  std::cout << o.backend << ": " << g_checks - g_failures << " of " << g_checks
            << " checks passed\n";
  return g_failures == 0 && rc == 0 ? 0 : 1;
}
