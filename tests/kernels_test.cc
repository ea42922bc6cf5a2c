// Every SIMD kernel against its scalar reference, on every target compiled in and
// supported here (KEYDECIDE_SIMD names them), with odd sizes to exercise the tails.

#include "model/kernels/kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "model/kernels/targets.h"
#include "model/weight_matrix.h"

namespace keydecide::kernels {
namespace {

// Differences come only from summation order (fp32 vs the reference's double) and the
// polynomial erf: relative to the sum of |terms|.
constexpr float kRelTolerance = 2e-5f;
constexpr float kAbsTolerance = 1e-5f;
// GELU: the polynomial erf's bound (1.5e-7) times |x| / 2, plus float rounding.
constexpr float kGeluTolerance = 1e-6f;

const int kOddSizes[] = {1, 3, 7, 17, 33, 64, 100, 256};

std::vector<float> Random(size_t n, uint32_t seed, float scale = 1.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

class KernelsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ASSERT_TRUE(ForceTarget(GetParam()).ok()); }
  void TearDown() override { ASSERT_TRUE(ForceTarget("").ok()); }
};

// |a - b| within tolerance of `magnitude` (the sum of |terms| behind the value).
void ExpectClose(float a, float b, float magnitude, const std::string& what) {
  EXPECT_NEAR(a, b, kRelTolerance * magnitude + kAbsTolerance) << what;
}

float MagnitudeOfRow(const WeightMatrix& m, int r, const float* x) {
  std::vector<float> w(m.cols());
  ref::DequantizeRow(m.view(), r, w.data());
  float s = 0;
  for (int c = 0; c < m.cols(); ++c) s += std::fabs(w[c] * x[c]);
  return s;
}

void CheckMatrix(const WeightMatrix& m, uint32_t seed) {
  const WeightView& w = m.view();
  const std::string shape = std::to_string(w.rows) + "x" + std::to_string(w.cols) + " format " +
                            std::to_string(static_cast<int>(w.format));
  const auto bias = Random(w.rows, seed + 1);
  // MatMul with several row counts (tiles of 4 and their remainders) against ref::MatVec.
  for (const int n : {1, 3, 4, 5, 9}) {
    const auto x = Random(static_cast<size_t>(n) * w.cols, seed + 2 + n);
    std::vector<float> got(static_cast<size_t>(n) * w.rows), want(w.rows);
    MatMul(w, x.data(), n, bias.data(), got.data());
    for (int t = 0; t < n; ++t) {
      const float* xt = &x[static_cast<size_t>(t) * w.cols];
      ref::MatVec(w, xt, bias.data(), want.data());
      for (int r = 0; r < w.rows; ++r) {
        ExpectClose(got[t * w.rows + r], want[r], MagnitudeOfRow(m, r, xt) + std::fabs(bias[r]),
                    shape + " MatMul n=" + std::to_string(n) + " t=" + std::to_string(t) + " row " +
                        std::to_string(r));
      }
    }
    if (n == 1) {  // MatVec without bias on the same x
      std::vector<float> mv(w.rows), ref_mv(w.rows);
      MatVec(w, x.data(), nullptr, mv.data());
      ref::MatVec(w, x.data(), nullptr, ref_mv.data());
      for (int r = 0; r < w.rows; ++r) {
        ExpectClose(mv[r], ref_mv[r], MagnitudeOfRow(m, r, x.data()), shape + " MatVec");
      }
    }
  }
  // RowDots on a few rows, repeated and out of order.
  const auto x = Random(w.cols, seed + 20);
  std::vector<int32_t> rows = {w.rows - 1, 0, w.rows / 2, w.rows - 1};
  std::vector<float> got(rows.size()), want(rows.size());
  RowDots(w, rows, x.data(), got.data());
  ref::RowDots(w, rows, x.data(), want.data());
  for (size_t i = 0; i < rows.size(); ++i) {
    ExpectClose(got[i], want[i], MagnitudeOfRow(m, rows[i], x.data()), shape + " RowDots");
  }
}

TEST_P(KernelsTest, F32MatrixKernels) {
  for (int rows : kOddSizes) {
    for (int cols : kOddSizes) {
      const auto w = Random(static_cast<size_t>(rows) * cols, rows * 1000 + cols);
      CheckMatrix(WeightMatrix::FromF32(w, rows, cols), rows + cols);
    }
  }
}

TEST_P(KernelsTest, Q8MatrixKernels) {
  for (int rows : kOddSizes) {
    for (int cols : kOddSizes) {
      const auto w = Random(static_cast<size_t>(rows) * cols, rows * 1000 + cols);
      CheckMatrix(WeightMatrix::Quantize(w.data(), rows, cols, WeightFormat::kQ8), rows + cols);
    }
  }
}

// Wide rows and many activation rows: the int8 matrix product quantizes its activations
// in groups (64 KB of stack), so 70 rows of 3000 columns take several groups.
TEST_P(KernelsTest, Q8MatMulOverSeveralActivationGroups) {
  const int rows = 9, cols = 3000, n = 70;
  const auto w = Random(static_cast<size_t>(rows) * cols, 5);
  const WeightMatrix m = WeightMatrix::Quantize(w.data(), rows, cols, WeightFormat::kQ8);
  const auto x = Random(static_cast<size_t>(n) * cols, 6);
  std::vector<float> got(static_cast<size_t>(n) * rows), want(rows);
  MatMul(m.view(), x.data(), n, nullptr, got.data());
  for (int t = 0; t < n; ++t) {
    const float* xt = &x[static_cast<size_t>(t) * cols];
    ref::MatVec(m.view(), xt, nullptr, want.data());
    for (int r = 0; r < rows; ++r) {
      ExpectClose(got[t * rows + r], want[r], MagnitudeOfRow(m, r, xt), "row " + std::to_string(t));
    }
  }
}

// The extremes of int8: weights -128 and 127 against activations that quantize to +-127,
// with signs chosen so every product has the largest magnitude. The int32 dots are exact on
// every path, and the scaling is the reference's, so the results are equal: a kernel whose
// int16 step saturated (AVX2's vpmaddubsw adds two byte products with saturation) would be
// off by thousands.
TEST_P(KernelsTest, Q8ExtremeValuesAreExact) {
  for (const int cols : {32, 67, 256}) {
    const int rows = 6;
    std::vector<int8_t> q(static_cast<size_t>(rows) * cols);
    std::vector<float> x(cols), scales(rows, 0.5f);
    for (int c = 0; c < cols; ++c) x[c] = c % 2 ? -3.0f : 3.0f;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const bool positive = (r + c / 4) % 3 != 0;  // the product's sign: mostly positive
        const bool weight_positive = positive == (x[c] > 0);
        q[static_cast<size_t>(r) * cols + c] =
            weight_positive ? int8_t{127} : (r % 2 ? int8_t{-128} : int8_t{-127});
      }
    }
    const WeightMatrix m =
        WeightMatrix::View(WeightFormat::kQ8, rows, cols, 0, q.data(), scales.data());
    std::vector<float> got(rows), want(rows), got_mm(3 * rows);
    MatVec(m.view(), x.data(), nullptr, got.data());
    ref::MatVec(m.view(), x.data(), nullptr, want.data());
    std::vector<float> x3;
    for (int t = 0; t < 3; ++t) x3.insert(x3.end(), x.begin(), x.end());
    MatMul(m.view(), x3.data(), 3, nullptr, got_mm.data());
    for (int r = 0; r < rows; ++r) {
      EXPECT_FLOAT_EQ(got[r], want[r]) << cols << " cols, row " << r;
      for (int t = 0; t < 3; ++t) EXPECT_FLOAT_EQ(got_mm[t * rows + r], want[r]) << "MatMul " << t;
    }
  }
}

TEST_P(KernelsTest, Q4MatrixKernels) {
  for (int group : {32, 64}) {
    for (int rows : kOddSizes) {
      for (int cols : {64, 128, 256, 320, 1024}) {
        const auto w = Random(static_cast<size_t>(rows) * cols, rows * 1000 + cols);
        CheckMatrix(WeightMatrix::Quantize(w.data(), rows, cols, WeightFormat::kQ4, group),
                    rows + cols + group);
      }
    }
  }
  // Group 32 allows a trailing half block of 32 columns.
  const auto w = Random(5 * 96, 9);
  CheckMatrix(WeightMatrix::Quantize(w.data(), 5, 96, WeightFormat::kQ4, 32), 9);
}

TEST_P(KernelsTest, VectorKernels) {
  for (int n : kOddSizes) {
    const auto a = Random(n, n), b = Random(n, n + 1), gamma = Random(n, n + 2),
               beta = Random(n, n + 3);
    float magnitude = 0;
    for (int i = 0; i < n; ++i) magnitude += std::fabs(a[i] * b[i]);
    ExpectClose(Dot(a.data(), b.data(), n), ref::Dot(a.data(), b.data(), n), magnitude, "Dot");

    std::vector<float> sum = a;
    AddTo(b.data(), n, sum.data());
    for (int i = 0; i < n; ++i) EXPECT_FLOAT_EQ(sum[i], a[i] + b[i]);

    std::vector<float> got(n), want(n);
    LayerNorm(a.data(), gamma.data(), beta.data(), n, 1e-5f, got.data());
    ref::LayerNorm(a.data(), gamma.data(), beta.data(), n, 1e-5f, want.data());
    for (int i = 0; i < n; ++i) EXPECT_NEAR(got[i], want[i], 1e-4f * (1 + std::fabs(want[i])));

    const auto wide = Random(n, n + 4, 4.0f);  // GELU over [-12, 12]
    got = wide, want = wide;
    Gelu(n, got.data());
    ref::Gelu(n, want.data());
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(got[i], want[i], kGeluTolerance * (1 + std::fabs(wide[i]))) << wide[i];
    }

    std::vector<int8_t> q_got(n), q_want(n);
    EXPECT_EQ(QuantizeActivations(wide.data(), n, q_got.data()),
              ref::QuantizeActivations(wide.data(), n, q_want.data()));
    EXPECT_EQ(q_got, q_want);

    got = wide, want = wide;
    Softmax(n, got.data());
    ref::Softmax(n, want.data());
    for (int i = 0; i < n; ++i) EXPECT_NEAR(got[i], want[i], 1e-6f);
  }
}

TEST_P(KernelsTest, AttentionOverCache) {
  for (int head_dim : {1, 7, 16, 64}) {
    for (int positions : {1, 2, 17, 64}) {
      const int stride = head_dim * 3;  // heads interleaved in the cache rows
      const auto q = Random(head_dim, head_dim);
      const auto k = Random(static_cast<size_t>(positions) * stride, positions);
      const auto v = Random(static_cast<size_t>(positions) * stride, positions + 1);
      std::vector<float> scores(positions), got(head_dim), want(head_dim);
      const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
      AttendHead(q.data(), k.data(), v.data(), stride, positions, head_dim, scale, scores.data(),
                 got.data());
      ref::AttendHead(q.data(), k.data(), v.data(), stride, positions, head_dim, scale,
                      scores.data(), want.data());
      for (int i = 0; i < head_dim; ++i) EXPECT_NEAR(got[i], want[i], 1e-5f);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTargets, KernelsTest, ::testing::ValuesIn(AvailableTargets()),
                         [](const auto& target) { return target.param; });

// --- Formats (target-independent) ---

TEST(WeightFormatTest, Q8RoundTripWithinHalfAStep) {
  const auto w = Random(300, 1);
  std::vector<int8_t> q(300);
  const float scale = QuantizeRowQ8(w.data(), 300, q.data());
  for (int c = 0; c < 300; ++c) EXPECT_LE(std::fabs(q[c] * scale - w[c]), scale / 2 + 1e-7f);
}

TEST(WeightFormatTest, Q4RoundTripWithinHalfAStepAndLayout) {
  for (int group : {32, 64}) {
    for (int cols : {32, 96, 256}) {
      if (cols % group != 0) continue;
      const auto w = Random(cols, cols + group);
      const WeightMatrix m = WeightMatrix::Quantize(w.data(), 1, cols, WeightFormat::kQ4, group);
      std::vector<float> back(cols);
      ref::DequantizeRow(m.view(), 0, back.data());
      for (int c = 0; c < cols; ++c) {
        // Half a step, except at +8 steps (opposite sign to the group's extreme), which
        // clamps to +7.
        const float scale = m.view().scales[c / group];
        const bool clamped = std::nearbyint(w[c] / scale) > 7;
        EXPECT_LE(std::fabs(back[c] - w[c]), std::fabs(scale) * (clamped ? 1.0f : 0.5f) + 1e-6f)
            << "col " << c;
      }
      // Every column is held by exactly one nibble.
      std::vector<int> seen(cols, 0);
      for (int b = 0; b < cols / 2; ++b) {
        ++seen[Q4Column(cols, b, false)];
        ++seen[Q4Column(cols, b, true)];
      }
      for (int c = 0; c < cols; ++c) EXPECT_EQ(seen[c], 1);
    }
  }
}

TEST(WeightFormatTest, ActivationQuantizationHandlesZeroAndNonFinite) {
  std::vector<float> x(10, 0.0f);
  std::vector<int8_t> q(10, 5);
  EXPECT_EQ(ref::QuantizeActivations(x.data(), 10, q.data()), 0.0f);
  for (int8_t v : q) EXPECT_EQ(v, 0);
  x[3] = NAN;
  EXPECT_EQ(ref::QuantizeActivations(x.data(), 10, q.data()), 0.0f);
}

TEST(TargetsTest, ForcingAnUnknownTargetFailsAndNamesTheChoices) {
  const Status s = ForceTarget("no-such-isa");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(AvailableTargets().front()), std::string::npos) << s.message();
  EXPECT_TRUE(ForceTarget("").ok());
}

TEST(TargetsTest, ForcedTargetIsActive) {
  for (const std::string& t : AvailableTargets()) {
    ASSERT_TRUE(ForceTarget(t).ok());
    EXPECT_EQ(ActiveTarget(), t);
  }
  ASSERT_TRUE(ForceTarget("").ok());
  EXPECT_EQ(ActiveTarget(), AvailableTargets().front());
}

}  // namespace
}  // namespace keydecide::kernels
