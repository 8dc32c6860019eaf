// The platforms tabbridge knows. Code that differs per platform takes a
// Platform argument where it can, so Linux CI tests the macOS and Windows
// branches too; only system calls (getpeereid, _NSGetExecutablePath, the
// Win32 API) sit behind #ifdef or in a *_windows.cpp file.
#pragma once

namespace tb {

enum class Platform { kLinux, kMacOS, kWindows };

#if defined(_WIN32)
inline constexpr Platform kThisPlatform = Platform::kWindows;
#elif defined(__APPLE__)
inline constexpr Platform kThisPlatform = Platform::kMacOS;
#elif defined(_WIN32)
inline constexpr Platform kThisPlatform = Platform::kWindows;
#else
inline constexpr Platform kThisPlatform = Platform::kLinux;
#endif

}  // namespace tb
