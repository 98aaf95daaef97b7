#include "node/formats/rfc3339.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace skillnode::node::formats {
namespace {

// `count` digits at `at`, as a number; nullopt when any is not a digit.
std::optional<int> Digits(std::string_view text, size_t at, size_t count) {
  if (at + count > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool CharAt(std::string_view text, size_t at, char c) { return at < text.size() && text[at] == c; }

}  // namespace

std::string Rfc3339Ms(uint64_t unix_ms) {
  using namespace std::chrono;
  const sys_seconds at{seconds(unix_ms / 1000)};
  const auto day = floor<days>(at);
  const year_month_day date{day};
  const hh_mm_ss time{at - day};
  char text[48];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02ld:%02ld:%02ld.%03uZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<long>(time.hours().count()),
                static_cast<long>(time.minutes().count()),
                static_cast<long>(time.seconds().count()), static_cast<unsigned>(unix_ms % 1000));
  return text;
}

std::optional<uint64_t> ParseRfc3339Ms(std::string_view text) {
  using namespace std::chrono;
  if (text.size() > kRfc3339LengthMax) return std::nullopt;
  const auto year = Digits(text, 0, 4);
  const auto month = Digits(text, 5, 2);
  const auto day = Digits(text, 8, 2);
  const auto hour = Digits(text, 11, 2);
  const auto minute = Digits(text, 14, 2);
  const auto second = Digits(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  if (!CharAt(text, 4, '-') || !CharAt(text, 7, '-') || !CharAt(text, 13, ':') ||
      !CharAt(text, 16, ':')) {
    return std::nullopt;
  }
  if (!CharAt(text, 10, 'T') && !CharAt(text, 10, 't') && !CharAt(text, 10, ' ')) {
    return std::nullopt;
  }
  // RFC 3339 allows a leap second (60); it is read as the last second of its minute.
  if (*hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
  const year_month_day date{std::chrono::year(*year), std::chrono::month(*month),
                            std::chrono::day(*day)};
  if (!date.ok()) return std::nullopt;
  size_t at = 19;
  int64_t fraction_ms = 0;
  if (CharAt(text, at, '.')) {
    ++at;
    const size_t first = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      if (at - first < 3) fraction_ms = fraction_ms * 10 + (text[at] - '0');
      ++at;
    }
    if (at == first) return std::nullopt;
    for (size_t i = at - first; i < 3; ++i) fraction_ms *= 10;
  }
  int64_t offset_minutes = 0;
  if (CharAt(text, at, 'Z') || CharAt(text, at, 'z')) {
    ++at;
  } else if (CharAt(text, at, '+') || CharAt(text, at, '-')) {
    const int sign = text[at] == '-' ? -1 : 1;
    const auto offset_hours = Digits(text, at + 1, 2);
    const auto offset_mins = Digits(text, at + 4, 2);
    if (!offset_hours || !offset_mins || !CharAt(text, at + 3, ':') || *offset_hours > 23 ||
        *offset_mins > 59) {
      return std::nullopt;
    }
    offset_minutes = sign * (*offset_hours * 60 + *offset_mins);
    at += 6;
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  const int64_t days_since_epoch = sys_days(date).time_since_epoch().count();
  const int64_t seconds_of_day = *hour * 3600 + *minute * 60 + std::min(*second, 59);
  const int64_t ms =
      (days_since_epoch * 86400 + seconds_of_day - offset_minutes * 60) * 1000 + fraction_ms;
  return ms < 0 ? 0 : static_cast<uint64_t>(ms);
}

}  // namespace skillnode::node::formats
