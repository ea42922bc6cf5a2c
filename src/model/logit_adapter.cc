#include "model/logit_adapter.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "base/byte_fields.h"

namespace keydecide {

static_assert(std::endian::native == std::endian::little, "the adapter blob is little-endian");

namespace {

constexpr char kMagic[4] = {'K', 'D', 'A', '1'};
constexpr size_t kHeaderBytes = 4 + 4 * 4;

void AppendFloats(const std::vector<float>& v, std::string* out) {
  out->append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

bool ReadFloats(std::string_view blob, size_t* pos, size_t n, std::vector<float>* v) {
  v->resize(n);
  std::memcpy(v->data(), blob.data() + *pos, n * sizeof(float));
  *pos += n * sizeof(float);
  for (float x : *v) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}

}  // namespace

LogitAdapter LogitAdapter::Zero(int rank, int d_model, int n_words, std::string base_id,
                                uint64_t seed) {
  LogitAdapter a;
  a.rank = rank, a.d_model = d_model, a.n_words = n_words;
  a.base_id = std::move(base_id);
  a.a.resize(static_cast<size_t>(rank) * d_model);
  // mt19937_64 and a Box-Muller draw of our own: std::normal_distribution's algorithm is
  // not fixed by the standard, and an adapter must be reproducible from its seed everywhere.
  std::mt19937_64 rng(seed);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d_model));
  for (size_t i = 0; i < a.a.size(); ++i) {
    const double u1 = (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    a.a[i] = scale *
             static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }
  a.u.assign(static_cast<size_t>(n_words) * rank, 0.0f);
  a.bias.assign(n_words, 0.0f);
  return a;
}

void LogitAdapter::Project(const float* y, float* z) const {
  for (int r = 0; r < rank; ++r) {
    const float* row = &a[static_cast<size_t>(r) * d_model];
    float s = 0;
    for (int i = 0; i < d_model; ++i) s += row[i] * y[i];
    z[r] = s;
  }
}

std::string LogitAdapter::Serialize() const {
  std::string out(kHeaderBytes, '\0');
  std::memcpy(out.data(), kMagic, 4);
  PutField<uint32_t>(&out, 4, static_cast<uint32_t>(rank));
  PutField<uint32_t>(&out, 8, static_cast<uint32_t>(d_model));
  PutField<uint32_t>(&out, 12, static_cast<uint32_t>(n_words));
  PutField<uint32_t>(&out, 16, static_cast<uint32_t>(base_id.size()));
  out += base_id;
  AppendFloats(a, &out);
  AppendFloats(u, &out);
  AppendFloats(bias, &out);
  return out;
}

Status LogitAdapter::Parse(std::string_view blob, LogitAdapter* out) {
  if (blob.size() < kHeaderBytes || std::memcmp(blob.data(), kMagic, 4) != 0) {
    return Status::Corruption("adapter: not a keydecide adapter (magic KDA1)");
  }
  const uint32_t rank = GetField<uint32_t>(blob, 4), d = GetField<uint32_t>(blob, 8),
                 words = GetField<uint32_t>(blob, 12), id = GetField<uint32_t>(blob, 16);
  if (rank == 0 || rank > kMaxRank || d == 0 || d > kMaxDModel || words == 0 || words > kMaxWords ||
      id > kMaxBaseIdBytes) {
    return Status::Corruption("adapter: dimensions out of range");
  }
  const size_t floats = static_cast<size_t>(rank) * d + static_cast<size_t>(words) * rank + words;
  if (blob.size() != kHeaderBytes + id + floats * sizeof(float)) {
    return Status::Corruption("adapter: " + std::to_string(blob.size()) +
                              " bytes, not what its dimensions need");
  }
  LogitAdapter a;
  a.rank = static_cast<int>(rank), a.d_model = static_cast<int>(d);
  a.n_words = static_cast<int>(words);
  a.base_id.assign(blob.substr(kHeaderBytes, id));
  size_t pos = kHeaderBytes + id;
  if (!ReadFloats(blob, &pos, static_cast<size_t>(rank) * d, &a.a) ||
      !ReadFloats(blob, &pos, static_cast<size_t>(words) * rank, &a.u) ||
      !ReadFloats(blob, &pos, words, &a.bias)) {
    return Status::Corruption("adapter: a weight is not finite");
  }
  *out = std::move(a);
  return Status::OK();
}

}  // namespace keydecide
