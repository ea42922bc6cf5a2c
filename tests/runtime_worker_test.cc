// The worker queue: order, coalescing, failures, back-pressure, shutdown, a many-thread
// stress run (also built with ThreadSanitizer by test.sh) and the governor driven by an
// artificially slow decision hook.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "keydecide/engine.h"
#include "keydecide/runtime.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

// What one callback saw (the decision is copied: it is valid only during the callback).
struct Seen {
  Outcome outcome;
  Status::Code code;
  std::string composition;
  Tier tier = Tier::kFullModel;
  size_t candidates = 0;
  uint32_t coalesced = 0;
};

class Recorder {
 public:
  ResponseCallback Callback(int index) {
    return [this, index](const Response& r) {
      Seen s{r.outcome, r.status.code(), "", Tier::kFullModel, 0, r.coalesced};
      if (r.decision != nullptr) {
        s.composition = r.decision->composition;
        s.tier = r.decision->tier;
        s.candidates = r.decision->candidates.size();
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (seen_.size() <= static_cast<size_t>(index)) seen_.resize(index + 1);
      seen_[index].push_back(s);
      ++calls_;
      cv_.notify_all();
    };
  }
  // Waits until `n` callbacks ran (no deadline: a hang is a failure ctest reports).
  void WaitFor(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return calls_ >= n; });
  }
  const std::vector<std::vector<Seen>>& seen() const { return seen_; }
  size_t calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::vector<Seen>> seen_;
  size_t calls_ = 0;
};

// A gate the decide hook can wait at, so a test knows the worker is busy.
class Gate {
 public:
  void Hook() {
    std::unique_lock<std::mutex> lock(mu_);
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return open_; });
  }
  void WaitEntered(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return entered_ >= n; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

Request Key(const std::string& text, bool decide = true) {
  Request r;
  r.kind = RequestKind::kType;
  r.text = text;
  r.decide = decide;
  return r;
}

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = testing::FixtureEngine();
    ASSERT_NE(engine_, nullptr);
  }
  std::unique_ptr<Runtime> Make(RuntimeOptions o = {}) {
    std::unique_ptr<Runtime> rt;
    const Status s = Runtime::Create(engine_.get(), o, &rt);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return rt;
  }
  std::unique_ptr<Engine> engine_;
};

TEST_F(RuntimeTest, AnswersEveryRequestInOrder) {
  auto rt = Make();
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  Recorder rec;
  const std::vector<std::string> keys = {"t", "h", "e"};
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(rt->Submit(id, Key(keys[i]), rec.Callback(static_cast<int>(i))),
              Admission::kAccepted);
  }
  rec.WaitFor(keys.size());
  // Whatever was coalesced, the last request gets the decision for "the".
  const Seen& last = rec.seen()[2].at(0);
  EXPECT_EQ(last.outcome, Outcome::kDecided);
  EXPECT_EQ(last.composition, "the");
  EXPECT_GT(last.candidates, 0u);
  EXPECT_EQ(last.tier, Tier::kLexiconOnly);  // the count baseline has only this rung
  for (const auto& per_request : rec.seen()) EXPECT_EQ(per_request.size(), 1u);
}

TEST_F(RuntimeTest, KeysArrivingWhileBusyAreCoalescedIntoOneDecision) {
  Gate gate;
  std::atomic<int> decides{0};
  RuntimeOptions o;
  o.decide_hook = [&](Tier) {
    if (decides.fetch_add(1) == 0) gate.Hook();  // hold the worker in the first decision
  };
  auto rt = Make(o);
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  Recorder rec;
  ASSERT_EQ(rt->Submit(id, Key("m"), rec.Callback(0)), Admission::kAccepted);
  gate.WaitEntered(1);
  const std::vector<std::string> burst = {"e", "e", "t", "i", "n", "g"};
  for (size_t i = 0; i < burst.size(); ++i) {
    ASSERT_EQ(rt->Submit(id, Key(burst[i]), rec.Callback(static_cast<int>(i + 1))),
              Admission::kAccepted);
  }
  Request no_decision = Key(" ", /*decide=*/false);
  ASSERT_EQ(rt->Submit(id, no_decision, rec.Callback(7)), Admission::kAccepted);
  gate.Open();
  rec.WaitFor(8);

  const auto& seen = rec.seen();
  EXPECT_EQ(seen[0][0].outcome, Outcome::kDecided);
  EXPECT_EQ(seen[0][0].composition, "m");
  for (int i = 1; i <= 5; ++i) {
    EXPECT_EQ(seen[i][0].outcome, Outcome::kSuperseded) << i;
    EXPECT_EQ(seen[i][0].coalesced, 7u);
  }
  // The newest request that asked for a decision gets it, for the state after it: the
  // trailing space asked for none and is applied after the decision.
  EXPECT_EQ(seen[6][0].outcome, Outcome::kDecided);
  EXPECT_EQ(seen[6][0].composition, "meeting");
  EXPECT_EQ(seen[7][0].outcome, Outcome::kApplied);
  EXPECT_EQ(decides.load(), 2);  // seven keystrokes, two decisions

  Request check;
  check.kind = RequestKind::kDecide;
  ASSERT_EQ(rt->Submit(id, check, rec.Callback(8)), Admission::kAccepted);
  rec.WaitFor(9);
  EXPECT_EQ(rec.seen()[8][0].composition, "");  // the space was applied all the same

  const Runtime::Stats st = rt->stats();
  EXPECT_EQ(st.decisions, 3u);
  EXPECT_EQ(st.superseded, 5u);
  EXPECT_EQ(st.passes, 3u);
  EXPECT_EQ(st.requests, 9u);
}

// Fair turns: a client keeping 40 sessions busy does not make another client's key wait
// for all of them. Its key, queued behind the 39, is served within two decisions.
TEST_F(RuntimeTest, AnotherOwnersKeyDoesNotWaitBehindABusyOwnersSessions) {
  Gate gate;
  std::atomic<int> decides{0};
  RuntimeOptions o;
  o.workers = 1;
  o.decide_hook = [&](Tier) {
    if (decides.fetch_add(1) == 0) gate.Hook();  // hold the worker in the first decision
  };
  auto rt = Make(o);
  constexpr uint64_t kTypist = 1, kGreedy = 2;
  constexpr int kBusy = 40;
  std::vector<Runtime::SessionId> busy(kBusy);
  for (auto& id : busy) ASSERT_TRUE(rt->OpenSession("en", {}, kGreedy, &id).ok());
  Runtime::SessionId mine;
  ASSERT_TRUE(rt->OpenSession("en", {}, kTypist, &mine).ok());
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int> order;  // -1: the typist's key; i: busy session i's
  auto note = [&](int who) {
    return [&, who](const Response&) {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(who);
      cv.notify_all();
    };
  };
  ASSERT_EQ(rt->Submit(busy[0], Key("a"), note(0)), Admission::kAccepted);
  gate.WaitEntered(1);
  for (int i = 1; i < kBusy; ++i) {
    ASSERT_EQ(rt->Submit(busy[i], Key("a"), note(i)), Admission::kAccepted);
  }
  ASSERT_EQ(rt->Submit(mine, Key("t"), note(-1)), Admission::kAccepted);
  gate.Open();
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return order.size() == kBusy + 1; });
  const size_t at = std::find(order.begin(), order.end(), -1) - order.begin();
  EXPECT_LE(at, 2u) << "the typist's key was answered " << at << "th";
  // The busy owner's own sessions still take their turns in order.
  std::vector<int> theirs;
  for (int who : order) {
    if (who >= 0) theirs.push_back(who);
  }
  EXPECT_TRUE(std::is_sorted(theirs.begin(), theirs.end()));
}

TEST_F(RuntimeTest, AFailedEditLeavesTheSessionAndTheOthersIntact) {
  auto rt = Make();
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  Recorder rec;
  ASSERT_EQ(rt->Submit(id, Key("th"), rec.Callback(0)), Admission::kAccepted);
  ASSERT_EQ(rt->Submit(id, Key("\xFF"), rec.Callback(1)), Admission::kAccepted);
  Request bs;
  bs.kind = RequestKind::kBackspace;
  bs.count = 1;
  ASSERT_EQ(rt->Submit(id, bs, rec.Callback(2)), Admission::kAccepted);
  rec.WaitFor(3);
  EXPECT_EQ(rec.seen()[1][0].outcome, Outcome::kFailed);
  EXPECT_EQ(rec.seen()[1][0].code, Status::Code::kInvalidArgument);
  EXPECT_EQ(rec.seen()[2][0].outcome, Outcome::kDecided);
  EXPECT_EQ(rec.seen()[2][0].composition, "t");
}

TEST_F(RuntimeTest, RefusesUnknownSessionsAndBadRequests) {
  auto rt = Make();
  Recorder rec;
  EXPECT_EQ(rt->Submit(12345, Key("a"), rec.Callback(0)), Admission::kUnknownSession);
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  Request bad = Key("a");
  bad.max_candidates = 201;
  EXPECT_EQ(rt->Submit(id, bad, rec.Callback(0)), Admission::kInvalid);
  Request bs;
  bs.kind = RequestKind::kBackspace;
  bs.count = 0;
  EXPECT_EQ(rt->Submit(id, bs, rec.Callback(0)), Admission::kInvalid);
  EXPECT_TRUE(rt->CloseSession(id));
  EXPECT_FALSE(rt->CloseSession(id));
  EXPECT_EQ(rt->Submit(id, Key("a"), rec.Callback(0)), Admission::kUnknownSession);
  EXPECT_EQ(rec.calls(), 0u);
  EXPECT_EQ(rt->stats().rejected, 4u);
}

TEST_F(RuntimeTest, ClosingASessionStillServesWhatWasAccepted) {
  Gate gate;
  RuntimeOptions o;
  std::atomic<int> decides{0};
  o.decide_hook = [&](Tier) {
    if (decides.fetch_add(1) == 0) gate.Hook();
  };
  auto rt = Make(o);
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  Recorder rec;
  ASSERT_EQ(rt->Submit(id, Key("a"), rec.Callback(0)), Admission::kAccepted);
  gate.WaitEntered(1);
  ASSERT_EQ(rt->Submit(id, Key("b"), rec.Callback(1)), Admission::kAccepted);
  EXPECT_TRUE(rt->CloseSession(id));
  gate.Open();
  rec.WaitFor(2);
  EXPECT_EQ(rec.seen()[1][0].outcome, Outcome::kDecided);
  EXPECT_EQ(rec.seen()[1][0].composition, "ab");
  EXPECT_EQ(rt->stats().sessions, 0u);
}

TEST_F(RuntimeTest, BoundedQueuesPushBack) {
  Gate gate;
  RuntimeOptions o;
  o.max_pending_per_session = 4;
  std::atomic<int> decides{0};
  o.decide_hook = [&](Tier) {
    if (decides.fetch_add(1) == 0) gate.Hook();
  };
  auto rt = Make(o);
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  Recorder rec;
  ASSERT_EQ(rt->Submit(id, Key("a"), rec.Callback(0)), Admission::kAccepted);
  gate.WaitEntered(1);
  for (int i = 1; i <= 4; ++i) {
    ASSERT_EQ(rt->Submit(id, Key("b"), rec.Callback(i)), Admission::kAccepted) << i;
  }
  EXPECT_EQ(rt->Submit(id, Key("c"), rec.Callback(5)), Admission::kQueueFull);
  gate.Open();
  rec.WaitFor(5);
  EXPECT_EQ(rec.seen()[4][0].composition, "abbbb");  // the refused "c" was never applied
}

TEST_F(RuntimeTest, ShutdownServesEverythingAcceptedThenRefuses) {
  Gate gate;
  RuntimeOptions o;
  std::atomic<int> decides{0};
  o.decide_hook = [&](Tier) {
    if (decides.fetch_add(1) == 0) gate.Hook();
  };
  auto rt = Make(o);
  Recorder rec;
  std::vector<Runtime::SessionId> ids(5);
  for (auto& id : ids) ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  int n = 0;
  for (auto id : ids) ASSERT_EQ(rt->Submit(id, Key("x"), rec.Callback(n++)), Admission::kAccepted);
  gate.WaitEntered(1);
  for (auto id : ids) ASSERT_EQ(rt->Submit(id, Key("y"), rec.Callback(n++)), Admission::kAccepted);
  std::thread stopper([&] { rt->Shutdown(); });
  // Shutdown waits for the held worker; new requests are refused meanwhile.
  while (rt->Submit(ids[0], Key("z"), nullptr) != Admission::kShutDown) std::this_thread::yield();
  gate.Open();
  stopper.join();
  EXPECT_EQ(rec.calls(), 10u);
  Runtime::SessionId late;
  EXPECT_EQ(rt->OpenSession({}, &late).code(), Status::Code::kNotSupported);
  rt->Shutdown();  // idempotent
}

// Many threads, many sessions, two workers: every response belongs to its own session
// (the composition after request j is known exactly), every request is answered once.
void RunStress(Runtime* rt);

TEST_F(RuntimeTest, StressManyThreadsNeverMixSessions) {
  RuntimeOptions o;
  o.workers = 2;
  auto rt = Make(o);
  RunStress(rt.get());
}

TEST_F(RuntimeTest, StressWithSpinningWorkers) {
  RuntimeOptions o;
  o.workers = 3;
  o.spin_us = 20;
  auto rt = Make(o);
  RunStress(rt.get());
}

void RunStress(Runtime* rt) {
  constexpr int kThreads = 8;
  constexpr int kSessionsPerThread = 4;
  constexpr int kKeys = 150;
  const std::vector<std::string> words = {"the", "meeting", "station", "tomorrow",
                                          "dog", "will",    "cat",     "we"};
  std::atomic<int> mismatches{0}, answered{0}, decided{0}, superseded{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Runtime::SessionId> ids(kSessionsPerThread);
      for (auto& id : ids) ASSERT_TRUE(rt->OpenSession({}, &id).ok());
      std::mutex mu;
      std::condition_variable cv;
      int done = 0, sent = 0;
      for (int j = 0; j < kKeys; ++j) {
        for (int k = 0; k < kSessionsPerThread; ++k) {
          // Session k of thread t types its own word, letter by letter, then a space.
          const std::string& word = words[(t * kSessionsPerThread + k) % words.size()];
          const size_t pos = static_cast<size_t>(j) % (word.size() + 1);
          const std::string key = pos < word.size() ? word.substr(pos, 1) : " ";
          const std::string expected = pos < word.size() ? word.substr(0, pos + 1) : "";
          auto cb = [&, expected](const Response& r) {
            if (r.outcome == Outcome::kDecided) {
              decided.fetch_add(1);
              if (r.decision->composition != expected) mismatches.fetch_add(1);
            } else if (r.outcome == Outcome::kSuperseded) {
              superseded.fetch_add(1);
            } else {
              mismatches.fetch_add(1);
            }
            answered.fetch_add(1);
            std::lock_guard<std::mutex> lock(mu);
            ++done;
            cv.notify_all();
          };
          Admission a;
          while ((a = rt->Submit(ids[k], Key(key), cb)) == Admission::kQueueFull) {
            std::this_thread::yield();
          }
          ASSERT_EQ(a, Admission::kAccepted);
          ++sent;
        }
      }
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return done == sent; });
      lock.unlock();
      for (auto id : ids) EXPECT_TRUE(rt->CloseSession(id));
    });
  }
  for (auto& th : threads) th.join();
  const int total = kThreads * kSessionsPerThread * kKeys;
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(answered.load(), total);
  EXPECT_EQ(decided.load() + superseded.load(), total);
  const Runtime::Stats st = rt->stats();
  EXPECT_EQ(st.requests, static_cast<uint64_t>(total));
  EXPECT_EQ(st.decisions, static_cast<uint64_t>(decided.load()));
  EXPECT_EQ(st.sessions, 0u);
  EXPECT_EQ(st.pending, 0u);
}

// The governor with a real (tiny) model and a decision hook that makes the full model
// slow: the ladder steps down, decisions report the cheaper rung, and once the slowness
// goes away the governor climbs back.
TEST(RuntimeGovernorTest, ArtificiallySlowFullModelStepsDownAndBackUp) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  ASSERT_NE(engine, nullptr);
  std::atomic<bool> slow{true};
  RuntimeOptions o;
  o.governor.budget_us = 20000;  // 20 ms
  o.governor.window = 8;
  o.decide_hook = [&](Tier tier) {
    if (slow.load() && tier == Tier::kFullModel) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // >= 50 ms: over budget
    }
  };
  std::unique_ptr<Runtime> rt;
  ASSERT_TRUE(Runtime::Create(engine.get(), o, &rt).ok());
  Runtime::SessionId id;
  ASSERT_TRUE(rt->OpenSession({}, &id).ok());

  // Sends one key and waits for its decision; returns the tier that served it.
  auto decide = [&](const std::string& key) {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Tier tier = Tier::kFullModel;
    EXPECT_EQ(rt->Submit(id, Key(key),
                         [&](const Response& r) {
                           std::lock_guard<std::mutex> lock(mu);
                           if (r.decision != nullptr) tier = r.decision->tier;
                           done = true;
                           cv.notify_all();
                         }),
              Admission::kAccepted);
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return done; });
    return tier;
  };

  EXPECT_EQ(decide("t"), Tier::kFullModel);
  EXPECT_EQ(decide("h"), Tier::kFullModel);  // window / 4 = 2 slow samples: judged now
  EXPECT_EQ(decide("e"), Tier::kNoVocabProposals);
  EXPECT_EQ(rt->stats().tier, Tier::kNoVocabProposals);

  // The middle rung is fast (microseconds against a 10 ms step-up threshold): after one
  // window the governor tries the full model again, which is now fast too and holds.
  slow = false;
  int steps = 0;
  while (decide(steps % 2 ? "a" : " ") != Tier::kFullModel) ASSERT_LT(++steps, 100);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(decide(i % 2 ? "o" : " "), Tier::kFullModel);
  const Runtime::Stats st = rt->stats();
  EXPECT_EQ(st.tier_changes, 2u);
  EXPECT_GT(st.tier_decisions[static_cast<int>(Tier::kNoVocabProposals)], 0u);
}

// Saturation: each full-model decision alone fits the budget, but ten sessions asking at
// once make the later ones wait in the queue; the governor counts that wait and steps down.
TEST(RuntimeGovernorTest, QueueWaitCountsAgainstTheBudget) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  ASSERT_NE(engine, nullptr);
  RuntimeOptions o;
  o.governor.budget_us = 20000;  // 20 ms
  o.governor.window = 8;
  o.decide_hook = [](Tier tier) {
    if (tier == Tier::kFullModel) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  };
  std::unique_ptr<Runtime> rt;
  ASSERT_TRUE(Runtime::Create(engine.get(), o, &rt).ok());
  Recorder rec;
  std::vector<Runtime::SessionId> ids(10);
  for (auto& id : ids) ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  for (size_t i = 0; i < ids.size(); ++i) {
    ASSERT_EQ(rt->Submit(ids[i], Key("a"), rec.Callback(static_cast<int>(i))),
              Admission::kAccepted);
  }
  rec.WaitFor(ids.size());
  // The n-th decision waited at least 5 ms * (n - 1): by the fifth the window's P90 is
  // over 20 ms.
  EXPECT_EQ(rec.seen()[0][0].tier, Tier::kFullModel);
  EXPECT_NE(rec.seen()[9][0].tier, Tier::kFullModel);
  EXPECT_NE(rt->stats().tier, Tier::kFullModel);
}

// A loaded machine: busy threads on every core while sessions type. Whatever the
// scheduler does, every request is answered once and a budget no decision can meet walks
// the ladder to its cheapest rung, which then serves the decisions.
TEST(RuntimeGovernorTest, LoadedMachineKeepsAnsweringOnTheCheapestRung) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  ASSERT_NE(engine, nullptr);
  RuntimeOptions o;
  o.governor.budget_us = 0.001f;
  o.governor.window = 8;
  std::unique_ptr<Runtime> rt;
  ASSERT_TRUE(Runtime::Create(engine.get(), o, &rt).ok());
  std::atomic<bool> stop{false};
  std::vector<std::thread> burners;
  const unsigned n = std::max(2u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) {
    burners.emplace_back([&] {
      volatile uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  }
  Recorder rec;
  std::vector<Runtime::SessionId> ids(4);
  for (auto& id : ids) ASSERT_TRUE(rt->OpenSession({}, &id).ok());
  int n_req = 0;
  for (int j = 0; j < 60; ++j) {
    for (auto id : ids) {
      Request r = Key(j % 5 == 4 ? " " : "w");
      while (rt->Submit(id, r, rec.Callback(n_req)) == Admission::kQueueFull) {
        std::this_thread::yield();
      }
      ++n_req;
    }
    rec.WaitFor(static_cast<size_t>(n_req));  // a round at a time: decisions, not coalescing
  }
  stop = true;
  for (auto& b : burners) b.join();
  for (const auto& s : rec.seen()) ASSERT_EQ(s.size(), 1u);
  const Runtime::Stats st = rt->stats();
  EXPECT_EQ(st.tier, Tier::kLexiconOnly);
  EXPECT_GT(st.tier_decisions[static_cast<int>(Tier::kLexiconOnly)], 0u);
}

}  // namespace
}  // namespace keydecide
