// A UTF-8 std::string as a std::filesystem::path and back. On Windows a
// path built from a plain std::string takes the ANSI code page's bytes (and
// .string() gives them), which garbles a non-ASCII user name; through
// char8_t it is UTF-8 on every platform. On Linux, the same bytes.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace tb {

inline std::filesystem::path Utf8Path(std::string_view utf8) {
  return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

inline std::string Utf8String(const std::filesystem::path& path) {
  const std::u8string text = path.u8string();
  return std::string(text.begin(), text.end());
}

}  // namespace tb
