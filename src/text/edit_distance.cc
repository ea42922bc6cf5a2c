#include "text/edit_distance.h"

#include <algorithm>
#include <cstdlib>

namespace keydecide {

int BoundedEditDistance(std::string_view a, std::string_view b, int bound) {
  const int too_far = bound + 1;
  if (bound < 0) return too_far;
  if (a.size() > kMaxEditDistanceBytes || b.size() > kMaxEditDistanceBytes) return too_far;
  const int m = static_cast<int>(a.size()), n = static_cast<int>(b.size());
  if (std::abs(m - n) > bound) return too_far;  // each edit changes the length by one at most
  // Three rolling rows of the dynamic programme: two rows back is what a swap reads.
  int rows[3][kMaxEditDistanceBytes + 1];
  int* before = rows[0];
  int* prev = rows[1];
  int* row = rows[2];
  for (int j = 0; j <= n; ++j) prev[j] = j;
  for (int i = 1; i <= m; ++i) {
    row[0] = i;
    int row_min = row[0];
    for (int j = 1; j <= n; ++j) {
      int v = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        v = std::min(v, before[j - 2] + 1);
      }
      row[j] = v;
      row_min = std::min(row_min, v);
    }
    // Every later cell grows from this row: a step down costs >= 0 from it, and a swap from
    // the row before costs >= its diagonal neighbour here (d[i][j-1] <= d[i-1][j-2] + 1).
    if (row_min > bound) return too_far;
    int* oldest = before;
    before = prev;
    prev = row;
    row = oldest;
  }
  return std::min(prev[n], too_far);
}

}  // namespace keydecide
