# Cross-compiling tabbridge for Windows (x86-64) on Debian: mingw-w64's GCC
# with posix threads (std::thread, std::mutex) and Wine to run what it builds.
# install/deps.sh --windows installs both and builds the libraries Debian does
# not ship for mingw (libuv, GoogleTest) into TABBRIDGE_WINDOWS_DEPS.
#   cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(TABBRIDGE_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${TABBRIDGE_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${TABBRIDGE_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${TABBRIDGE_MINGW_TRIPLE}-windres)

# Where deps.sh --windows put libuv and GoogleTest for mingw (outside the source tree).
if(NOT DEFINED TABBRIDGE_WINDOWS_DEPS)
  if(DEFINED ENV{TABBRIDGE_WINDOWS_DEPS})
    set(TABBRIDGE_WINDOWS_DEPS $ENV{TABBRIDGE_WINDOWS_DEPS})
  elseif(DEFINED ENV{XDG_CACHE_HOME})
    set(TABBRIDGE_WINDOWS_DEPS $ENV{XDG_CACHE_HOME}/tabbridge/windows-deps)
  else()
    set(TABBRIDGE_WINDOWS_DEPS $ENV{HOME}/.cache/tabbridge/windows-deps)
  endif()
endif()
set(TABBRIDGE_WINDOWS_DEPS ${TABBRIDGE_WINDOWS_DEPS} CACHE PATH "prefix of the mingw builds of libuv and GoogleTest")
# try_compile projects see the toolchain file again, not the cache.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TABBRIDGE_WINDOWS_DEPS)

set(CMAKE_FIND_ROOT_PATH /usr/${TABBRIDGE_MINGW_TRIPLE} ${TABBRIDGE_WINDOWS_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest and gtest_discover_tests run the .exe files under Wine's 64-bit
# loader, quietly.
set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/env WINEDEBUG=-all /usr/lib/wine/wine64)

# The C++ runtime linked in: the .exe files need no mingw DLLs next to them.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
