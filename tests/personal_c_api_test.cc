// The C ABI's user-store calls (kd_personal_*, include/keydecide/keydecide.h): export, import,
// forget, forget a range, clear, on a store of the test's own; bad input changes nothing.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "keydecide/keydecide.h"
#include "test_util.h"

namespace {

constexpr const char* kExport =
    R"({"format": "keydecide-user-store", "version": 1, "words": [)"
    R"({"language": "en", "word": "Zorblax", "count": 3, "picks": 1, "weight": 2.5,)"
    R"( "first_time": 1000, "last_time": 2000},)"
    R"({"language": "en", "word": "Quoggle", "count": 1, "picks": 0, "weight": 1,)"
    R"( "first_time": 5000, "last_time": 5000}],)"
    R"( "pairs": [{"language": "en", "previous": "Mr", "word": "Zorblax", "count": 2,)"
    R"( "weight": 1.5, "last_time": 2000}]})";

std::string Export(const std::string& path) {
  char* json = nullptr;
  EXPECT_EQ(kd_personal_export(path.c_str(), &json), KD_OK) << kd_last_error();
  std::string out = json != nullptr ? json : "";
  kd_string_free(json);
  return out;
}

TEST(PersonalCApiTest, ExportImportForgetClear) {
  const std::string path = keydecide::testing::TempPath("personal_c_api.db");
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());

  ASSERT_EQ(kd_personal_import(path.c_str(), kExport), KD_OK) << kd_last_error();
  std::string json = Export(path);
  EXPECT_NE(json.find("\"Zorblax\""), std::string::npos);
  EXPECT_NE(json.find("\"Quoggle\""), std::string::npos);

  EXPECT_EQ(kd_personal_import(path.c_str(), "{\"format\": 1}"), KD_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kd_last_error()).find("format"), std::string::npos);
  EXPECT_EQ(kd_personal_import(path.c_str(), nullptr), KD_INVALID_ARGUMENT);
  json = Export(path);  // the refusals changed nothing
  EXPECT_NE(json.find("\"Zorblax\""), std::string::npos);
  EXPECT_NE(json.find("\"Quoggle\""), std::string::npos);

  int32_t removed = -1;
  ASSERT_EQ(kd_personal_forget(path.c_str(), "zorblax", &removed), KD_OK);
  EXPECT_EQ(removed, 2);
  EXPECT_EQ(Export(path).find("Zorblax"), std::string::npos);
  ASSERT_EQ(kd_personal_forget_range(path.c_str(), 4000, 6000, &removed), KD_OK);
  EXPECT_EQ(removed, 1);
  ASSERT_EQ(kd_personal_import(path.c_str(), kExport), KD_OK);
  ASSERT_EQ(kd_personal_clear(path.c_str()), KD_OK);
  EXPECT_EQ(Export(path).find("Quoggle"), std::string::npos);

  EXPECT_EQ(kd_personal_clear("/proc/self/keydecide/user.db"), KD_ERR_IO);
  EXPECT_EQ(kd_personal_export(path.c_str(), nullptr), KD_INVALID_ARGUMENT);
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
}

}  // namespace
