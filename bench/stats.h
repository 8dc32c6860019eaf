// Summaries of timing samples for the benchmarks' tables.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace tb::bench {

struct Summary {
  std::size_t n = 0;
  double min = 0, p50 = 0, p99 = 0, max = 0, total = 0;
};

// Nearest-rank percentiles: p99 of 50 samples is the 50th, not an interpolation.
inline Summary Summarize(std::vector<double> samples) {
  Summary s;
  if (samples.empty()) return s;
  std::ranges::sort(samples);
  auto rank = [&](double p) {
    const auto index = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(samples.size())));
    return samples[std::clamp<std::size_t>(index, 1, samples.size()) - 1];
  };
  s.n = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.p50 = rank(50);
  s.p99 = rank(99);
  for (double v : samples) s.total += v;
  return s;
}

inline double MicrosSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

// One row of the markdown table bench/run.sh prints.
inline void Row(const std::string& figure, const std::string& value, const std::string& target) {
  std::printf("| %s | %s | %s |\n", figure.c_str(), value.c_str(), target.c_str());
  std::fflush(stdout);
}

inline std::string Format(const char* format, auto... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer), format, args...);
  return buffer;
}

}  // namespace tb::bench
