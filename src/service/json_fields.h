// Reading the daemon's JSON defensively: a missing or mistyped field reads as its default, so
// that a misbehaving daemon can neither crash nor throw into a host (the C ABI's clients).

#ifndef KEYDECIDE_SERVICE_JSON_FIELDS_H_
#define KEYDECIDE_SERVICE_JSON_FIELDS_H_

#include <string>

#include <nlohmann/json.hpp>

namespace keydecide::service {

inline const nlohmann::json& Field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kNull;
  if (!j.is_object()) return kNull;
  const auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}
inline std::string StringField(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = Field(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}
inline float FloatField(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = Field(j, key);
  return v.is_number() ? v.get<float>() : 0.0f;
}
inline bool BoolField(const nlohmann::json& j, const char* key, bool otherwise) {
  const nlohmann::json& v = Field(j, key);
  return v.is_boolean() ? v.get<bool>() : otherwise;
}

}  // namespace keydecide::service

#endif  // KEYDECIDE_SERVICE_JSON_FIELDS_H_
