#pragma once
// The plan table (docs/api.md "Plans and rate limits").

#include <array>
#include <string_view>

namespace feedback::plans {

inline constexpr int kUnlimited = -1;
// The longest retention a workspace may have (docs/api.md "Erasure and retention"): a hundred
// years, whose cutoff every timestamp can hold (tokens migration 002 checks it too).
inline constexpr int kMaxRetentionDays = 36500;

struct Plan {
  std::string_view name;
  int requests_per_minute;
  int link_quota;  // kUnlimited for no quota
};

inline constexpr std::array<Plan, 3> kAll = {
    Plan{"free", 30, 10},
    Plan{"pro", 120, 100},
    Plan{"enterprise", 600, kUnlimited},
};

inline const Plan* find(std::string_view name) {
  for (const auto& p : kAll) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace feedback::plans
