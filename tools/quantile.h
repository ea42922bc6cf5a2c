// Quantiles of latency samples for the benchmarks and evaluations.

#ifndef KEYDECIDE_TOOLS_QUANTILE_H_
#define KEYDECIDE_TOOLS_QUANTILE_H_

#include <algorithm>
#include <vector>

namespace keydecide {

// The sample nearest to rank q·(n−1) of the sorted samples (0 for none); q in [0, 1].
inline double Quantile(std::vector<float> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_QUANTILE_H_
