// Reading the kernel's per-process status (Linux /proc), for the benchmarks' memory figures.

#ifndef KEYDECIDE_TOOLS_PROC_STATUS_H_
#define KEYDECIDE_TOOLS_PROC_STATUS_H_

#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace keydecide {

// The value of a "<field>: <n> kB" line (VmRSS, VmHWM, ...) of /proc/<pid>/status, in kB;
// pid 0 is this process. 0 when the file or the line is missing.
inline long ProcStatusKb(std::string_view field, long pid = 0) {
  std::ifstream status(pid == 0 ? std::string("/proc/self/status")
                                : "/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.size() > field.size() && line.starts_with(field) && line[field.size()] == ':') {
      return std::atol(line.c_str() + field.size() + 1);
    }
  }
  return 0;
}

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_PROC_STATUS_H_
