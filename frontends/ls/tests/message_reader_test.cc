// The base protocol's framing (message_reader.h): split and joined messages, bad headers and
// oversized bodies, and the memory bound.

#include "message_reader.h"

#include <string>

#include <gtest/gtest.h>

namespace keydecide::ls {
namespace {

using Result = MessageReader::Result;

TEST(MessageReaderTest, ReadsMessagesSplitAnywhere) {
  const std::string stream = FrameMessage("{\"a\":1}") + FrameMessage("{\"é\":2}") +
                             "content-length: 2\r\nContent-Type: x\r\n\r\n{}";
  for (size_t step = 1; step <= stream.size(); ++step) {
    MessageReader reader;
    std::vector<std::string> bodies;
    std::string body, error;
    for (size_t i = 0; i < stream.size(); i += step) {
      reader.Append(std::string_view(stream).substr(i, step));
      Result r;
      while ((r = reader.Next(&body, &error)) == Result::kMessage) bodies.push_back(body);
      ASSERT_EQ(r, Result::kNeedMore) << error;
    }
    ASSERT_EQ(bodies.size(), 3u) << "step " << step;
    EXPECT_EQ(bodies[0], "{\"a\":1}");
    EXPECT_EQ(bodies[1], "{\"é\":2}");
    EXPECT_EQ(bodies[2], "{}");
    EXPECT_EQ(reader.buffered(), 0u);
  }
}

TEST(MessageReaderTest, BadHeaderIsReportedAndTheNextMessageStillRead) {
  for (const std::string bad :
       {"Content-Length: x\r\n\r\n", "Content-Length: -3\r\n\r\n", "no colon here\r\n\r\n",
        "Content-Type: a\r\n\r\n", "Content-Length: 1\r\nContent-Length: 1\r\n\r\n"}) {
    MessageReader reader;
    reader.Append(bad + FrameMessage("{}"));
    std::string body, error;
    EXPECT_EQ(reader.Next(&body, &error), Result::kError) << bad;
    EXPECT_FALSE(error.empty());
    ASSERT_EQ(reader.Next(&body, &error), Result::kMessage) << bad;
    EXPECT_EQ(body, "{}");
  }
}

TEST(MessageReaderTest, GarbageWithoutHeaderEndIsDroppedNotBuffered) {
  MessageReader reader;
  std::string body, error;
  const std::string garbage(MessageReader::kMaxHeaderBytes + 100, 'x');
  reader.Append(garbage);
  EXPECT_EQ(reader.Next(&body, &error), Result::kError);
  EXPECT_EQ(reader.buffered(), 0u);
  reader.Append(garbage + "Content-Le");  // a header cut by the read keeps its start
  EXPECT_EQ(reader.Next(&body, &error), Result::kError);
  EXPECT_EQ(reader.buffered(), 10u);
  reader.Append(FrameMessage("[1]").substr(10));
  ASSERT_EQ(reader.Next(&body, &error), Result::kMessage);
  EXPECT_EQ(body, "[1]");
}

TEST(MessageReaderTest, OversizedBodyIsSkippedAsItArrives) {
  MessageReader reader(/*max_body_bytes=*/1000);
  std::string body, error;
  reader.Append("Content-Length: 5000\r\n\r\n" + std::string(100, 'a'));
  EXPECT_EQ(reader.Next(&body, &error), Result::kError);
  EXPECT_NE(error.find("5000"), std::string::npos);
  EXPECT_EQ(reader.buffered(), 0u);
  for (int i = 0; i < 49; ++i) {
    reader.Append(std::string(100, 'a'));
    EXPECT_EQ(reader.buffered(), 0u);  // never held
    EXPECT_EQ(reader.Next(&body, &error), Result::kNeedMore);
  }
  reader.Append(FrameMessage("{}"));
  ASSERT_EQ(reader.Next(&body, &error), Result::kMessage);
  EXPECT_EQ(body, "{}");
}

TEST(MessageReaderTest, HugeContentLengthIsNotAnOverflow) {
  MessageReader reader;
  std::string body, error;
  reader.Append("Content-Length: 999999999999\r\n\r\n{}");
  EXPECT_EQ(reader.Next(&body, &error), Result::kError);
  reader.Append("Content-Length: 9999999999999\r\n\r\n");    // 13 digits: refused as absurd
  EXPECT_EQ(reader.Next(&body, &error), Result::kNeedMore);  // still skipping the first
}

TEST(MessageReaderTest, FrameMessageCountsBytes) {
  EXPECT_EQ(FrameMessage("é"), "Content-Length: 2\r\n\r\né");
}

}  // namespace
}  // namespace keydecide::ls
