// UTF-8 <-> UTF-16 for the Windows API's wide calls (registry, paths,
// pipes): the one conversion, through MultiByteToWideChar and
// WideCharToMultiByte. Windows only (common/CMakeLists.txt).
#pragma once

#include <string>
#include <string_view>

namespace tb {

// Invalid UTF-8 becomes U+FFFD, an unpaired surrogate "?" (what Windows does).
std::wstring Utf16(std::string_view utf8);
std::string Utf8(std::wstring_view utf16);

// An environment variable in UTF-8 (getenv gives the ANSI code page's
// bytes); "" when unset.
std::string EnvUtf8(std::string_view name);

}  // namespace tb
