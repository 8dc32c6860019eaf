// The platforms tabbridge knows. Code that differs per platform takes a
// Platform argument where it can, so Linux CI tests the macOS branch too;
// only system calls (getpeereid, _NSGetExecutablePath) sit behind #ifdef.
#pragma once

namespace tb {

enum class Platform { kLinux, kMacOS, kWindows };

#ifdef __APPLE__
inline constexpr Platform kThisPlatform = Platform::kMacOS;
#elif defined(_WIN32)
inline constexpr Platform kThisPlatform = Platform::kWindows;
#else
inline constexpr Platform kThisPlatform = Platform::kLinux;
#endif

}  // namespace tb
